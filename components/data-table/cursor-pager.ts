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
