import { afterEach, describe, expect, it } from "vitest";
import { assertProviderHost } from "./check-provider-host";
import { DKIM_HEADER_FIELDS, deploymentDkim, dkimKey, dkimRecord, newDkimPrivateKey } from "./dkim";
import { maskedUrl } from "./provider-view";
import { deploymentSmtpForProjects } from "./transports";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe("provider rules", () => {
  it("masks the password, and the user name when it is the password (Postmark's server token)", () => {
    expect(maskedUrl("smtp://apikey:s3cret@smtp.example.com:587")).toBe("smtp://apikey:****@smtp.example.com:587");
    expect(maskedUrl("smtp://tok-123:tok-123@smtp.postmarkapp.com:587")).toBe(
      "smtp://****:****@smtp.postmarkapp.com:587",
    );
  });

  it("takes api_base over http only for a host DESTINATIONS_ALLOW_HOSTS lists", () => {
    process.env.DESTINATIONS_ALLOW_HOSTS = "sms.internal.test";
    expect(() => assertProviderHost("http://twilio.example.com", "api_base")).toThrow(/http:\/\/ is only for hosts/);
    expect(() => assertProviderHost("https://twilio.example.com", "api_base")).not.toThrow();
    expect(() => assertProviderHost("http://sms.internal.test:8080", "api_base")).not.toThrow();
  });

  it("offers the deployment's SMTP_URL to projects in production only with DEPLOYMENT_SMTP_FOR_PROJECTS=true", () => {
    const env = process.env as Record<string, string | undefined>;
    env.NODE_ENV = "development";
    delete env.DEPLOYMENT_SMTP_FOR_PROJECTS;
    expect(deploymentSmtpForProjects()).toBe(true);
    env.NODE_ENV = "production";
    expect(deploymentSmtpForProjects()).toBe(false);
    env.DEPLOYMENT_SMTP_FOR_PROJECTS = "true";
    expect(deploymentSmtpForProjects()).toBe(true);
  });

  it("makes a 2048-bit key and its TXT record; reads the deployment's key from the environment", () => {
    const pem = newDkimPrivateKey();
    const key = dkimKey("example.com", "s1", pem)!;
    expect(key.privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(key.headerFieldNames).toBe(DKIM_HEADER_FIELDS);
    const record = dkimRecord("example.com", "s1", pem);
    expect(record.name).toBe("s1._domainkey.example.com");
    expect(record.value).toMatch(/^v=DKIM1; k=rsa; p=MIIB/);
    expect(dkimKey("example.com", "s1", "nope")).toBeNull();
    process.env.DKIM_DOMAIN = "example.com";
    process.env.DKIM_SELECTOR = "relay";
    process.env.DKIM_PRIVATE_KEY = pem.replaceAll("\n", "\\n");
    expect(deploymentDkim()).toMatchObject({ domain: "example.com", selector: "relay" });
    delete process.env.DKIM_PRIVATE_KEY;
    expect(deploymentDkim()).toBeNull();
  });
});
