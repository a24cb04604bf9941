import type { Metadata } from "next";
import { TemplateEditor } from "@/components/templates/template-editor";
import { PageHeader } from "@/components/ui/states";

export const metadata: Metadata = { title: "New template" };

export default function Page() {
  return (
    <>
      <PageHeader
        title="New template"
        description="Write the default variant in Liquid; add a variant per locale. Saving compiles it: a syntax error names its line and column."
      />
      <TemplateEditor />
    </>
  );
}
