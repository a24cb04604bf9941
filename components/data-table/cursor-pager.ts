"use client";
import { useState } from "react";

/**
 * Cursor pagination driven by the server: a stack of the cursors that led to each page, so Previous
 * goes back without the API having to page backwards. Resets when `resetKey` (the filters) changes.
 */
export function useCursorPager(resetKey: string) {
  const [state, setState] = useState<{ key: string; stack: (string | null)[] }>({ key: resetKey, stack: [null] });
  const stack = state.key === resetKey ? state.stack : [null];
  return {
    cursor: stack[stack.length - 1] ?? null,
    page: stack.length,
    next: (cursor: string) => setState({ key: resetKey, stack: [...stack, cursor] }),
    prev: () => setState({ key: resetKey, stack: stack.length > 1 ? stack.slice(0, -1) : stack }),
  };
}

export type CursorPager = ReturnType<typeof useCursorPager>;

/**
 * DataTable's paging props for the page the server answered: which page this is, the cursor Next follows,
 * and whether an older page is still shown while the new one loads.
 */
export function pagingProps(
  pager: CursorPager,
  q: { data: { next_cursor: string | null }; isPlaceholderData: boolean },
) {
  return {
    page: pager.page,
    nextCursor: q.data.next_cursor,
    onNext: pager.next,
    onPrev: pager.prev,
    fetching: q.isPlaceholderData,
  };
}
