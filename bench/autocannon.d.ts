/** The slice of autocannon's API the bench uses (the package ships no types). */
declare module "autocannon" {
  namespace autocannon {
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      connections?: number;
      duration?: number;
      overallRate?: number;
    }
    interface Result {
      "2xx": number;
      non2xx: number;
      errors: number;
      duration: number;
      latency: { p50: number; p99: number };
    }
  }
  function autocannon(opts: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
