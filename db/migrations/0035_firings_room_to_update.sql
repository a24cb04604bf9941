-- Room on every page for each row's next version, so the firing loop's marks stay on their page
-- (docs/decisions/0019-firings-recorded-in-one-statement.md). A burst fires every row of a page in one
-- transaction: a firing's fired mark and a single assignment's `fired` state are each one new version per
-- row, and with the page full they moved to another page, which costs a lock record on the old one and a
-- new entry in every index (three on an assignment). With half of each page free, the assignment's
-- update is HOT (no indexed column changes) and the firing's stays on its page. Applies to pages written
-- from now on; existing rows move as they are rewritten.
ALTER TABLE "schedule_firings" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "schedule_assignments" SET (fillfactor = 50);
