import { InvalidLink } from "@/app/_components/public-shell";

export default function NotFound() {
  return <InvalidLink what="preferences" />;
}
