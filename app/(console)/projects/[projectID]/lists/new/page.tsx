import type { Metadata } from "next";
import { ListEditor } from "@/components/lists/list-editor";
import { PageHeader } from "@/components/ui/states";

export const metadata: Metadata = { title: "New list" };

export default function Page() {
  return (
    <>
      <PageHeader
        title="New list"
        description="A dynamic list follows its rules as events arrive; the preview shows who matches right now."
      />
      <ListEditor />
    </>
  );
}
