import { EmptyState, PageHeader } from "@/components/ui/states";

/** Placeholder for a page whose admin API has not shipped yet in this build. */
export function PendingFeature({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <EmptyState title={`${title} are not available in this build yet`}>This page appears once its admin API is deployed.</EmptyState>
    </>
  );
}
