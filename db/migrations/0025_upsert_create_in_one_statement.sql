-- relay_upsert_user and relay_upsert_organization as 0023 left them, with a new record written by one
-- statement. 0023 read the new assignment back to make its firings, in a join that PL/pgSQL's generic
-- plan could serve from schedule_assignments_schedule_idx (project, schedule, id) bounded by the project
-- alone: every POST /users read every assignment of its project, so a new user's call grew with the
-- project (backend CPU per new user over 2,000 and 30,000 calls in a row: 465 and 735 µs; now 325 and 364). The
-- firings now come from the values the assignment's insert returns, and the record, its pairs, its
-- `*.created` event and intake row, and its assignment with firings are one statement of data-modifying
-- CTEs, checked against the totals before anything is written and answered from what was written,
-- instead of nine statements and a read-back. An existing record's path is 0023's, except that the
-- conflict check is the count of records locked and the event and its intake row are one statement.
-- 0017 states the contract; lib/identity/upsert-one.ts the rules.
DO $do$
DECLARE
  k record;
BEGIN
  FOR k IN
    SELECT * FROM (VALUES
      ('relay_upsert_user', 'user', 'users', 'user_identifiers', 'user_id', ARRAY['email', 'phone', 'timezone', 'locale']),
      ('relay_upsert_organization', 'organization', 'organizations', 'organization_identifiers', 'organization_id', ARRAY['name'])
    ) AS t(fn, kind, records, idents, idcol, cols)
  LOOP
    EXECUTE format($tpl$
CREATE OR REPLACE FUNCTION %1$I(p_project uuid, p_change jsonb, p_conf jsonb) RETURNS json
LANGUAGE plpgsql AS $fn$
DECLARE
  v_cols text[] := %9$s;
  v_pairs jsonb := p_change->'identifier';
  v_cc jsonb := coalesce(p_change->'columns', '{}'::jsonb);
  v_data jsonb := p_change->'data';
  v_anniversary jsonb := p_conf->'anniversary';
  v_found jsonb;
  v_locked uuid[];
  v_owners jsonb;
  v_write jsonb;
  v_id uuid;
  v_row jsonb;
  v_new int;
  v_added int := 0;
  v_patch jsonb;
  v_changed text[] := '{}';
  v_totals record;
  v_meta_bytes int := 0;
  v_data_bytes int;
  v_event_name text;
  v_event_data jsonb;
  v_event_id uuid;
  v_schedule uuid;
  v_result json;
BEGIN
  -- The pairs already stored, one primary-key probe each (OFFSET 0 keeps the subquery from being
  -- flattened into a join that could scan all of the project's identifiers).
  SELECT coalesce(jsonb_agg(jsonb_build_array(i.source, i.external_id, i.rid)), '[]'::jsonb) INTO v_found
    FROM jsonb_to_recordset(v_pairs) AS x(source text, external_id text)
    CROSS JOIN LATERAL (
      SELECT i.source, i.external_id, i.%5$I AS rid FROM %4$I i
      WHERE i.project_id = p_project AND i.source = x.source AND i.external_id = x.external_id OFFSET 0) i;

  -- Their records locked in id order (as the batch path locks them), one primary-key probe each, in a
  -- nested loop over the sorted ids that no estimate can turn around: a join here let the planner scan
  -- the project's records and probe the pairs for each (0017), and `id = ANY (array)` let it pick another
  -- index on project_id. A pair whose record was deleted meanwhile names no one (the deletion removed
  -- the pair too).
  IF jsonb_array_length(v_found) > 0 THEN
    SELECT coalesce(array_agg(l.id), '{}') INTO v_locked
      FROM (SELECT DISTINCT (f->>2)::uuid AS rid FROM jsonb_array_elements(v_found) f ORDER BY 1) d
      CROSS JOIN LATERAL (SELECT r.id FROM %3$I r WHERE r.project_id = p_project AND r.id = d.rid FOR UPDATE) l;
    SELECT coalesce(jsonb_agg(f ORDER BY f->>2), '[]'::jsonb) INTO v_owners
      FROM jsonb_array_elements(v_found) f WHERE (f->>2)::uuid = ANY (v_locked);
    IF cardinality(v_locked) > 1 THEN
      RETURN json_build_object('conflict', v_owners);
    END IF;
  ELSE
    v_owners := '[]'::jsonb;
  END IF;

  IF jsonb_array_length(v_owners) = 0 THEN
    -- A new record with every pair. Its totals (lib/identity/record-totals.ts) are those of what this call
    -- writes, so they are checked before anything is written.
    v_new := jsonb_array_length(v_pairs);
    IF jsonb_path_exists(v_pairs, '$[*].metadata') THEN
      SELECT coalesce(sum(octet_length(x.metadata::text)), 0)::int INTO v_meta_bytes FROM jsonb_to_recordset(v_pairs) AS x(metadata jsonb);
    END IF;
    v_data_bytes := octet_length(coalesce(v_data, '{}'::jsonb)::text);
    IF v_new > (p_conf->>'max_identifiers')::int OR v_data_bytes > (p_conf->>'max_data_bytes')::int
       OR v_meta_bytes > (p_conf->>'max_data_bytes')::int THEN
      RAISE EXCEPTION USING ERRCODE = 'RL422', MESSAGE = '%1$s: record totals exceeded',
        DETAIL = json_build_object('identifiers', v_new, 'data_bytes', v_data_bytes, 'metadata_bytes', v_meta_bytes)::text;
    END IF;

    -- The creation hook's schedule: the project's anniversary schedule, made with its first record.
    SELECT s.id INTO v_schedule FROM schedules s WHERE s.project_id = p_project AND s.name = v_anniversary->>'name' FOR KEY SHARE;
    IF v_schedule IS NULL THEN
      INSERT INTO schedules (project_id, name, type, builtin)
      VALUES (p_project, v_anniversary->>'name', v_anniversary->>'type', v_anniversary->>'builtin')
      ON CONFLICT DO NOTHING RETURNING id INTO v_schedule;
      IF v_schedule IS NOT NULL THEN
        INSERT INTO schedule_offsets (project_id, schedule_id, "offset", offset_key, direction)
        VALUES (p_project, v_schedule, v_anniversary->>'offset', v_anniversary->>'offset_key', v_anniversary->>'direction');
      ELSE
        SELECT s.id INTO v_schedule FROM schedules s WHERE s.project_id = p_project AND s.name = v_anniversary->>'name' FOR KEY SHARE;
      END IF;
    END IF;

    -- One statement writes the record, its pairs (in one global order, so concurrent writers of the same
    -- pairs queue rather than deadlock), its `*.created` event and intake row (lib/events/
    -- record-system-events.ts), and its anniversary assignment (anchored at creation to the millisecond,
    -- as the batch path passes it through a JavaScript Date) with one firing per offset of the schedule
    -- (lib/schedules/anniversary.ts), the offsets key-share locked where they are used (no foreign key
    -- does it since 0019). The firings come from what the assignment's insert returned: 0023 read the
    -- assignment back through a join, which PL/pgSQL's generic plan could serve from the index by
    -- (project, schedule, id) with only the project as its bound, reading every assignment of the project
    -- on each call. The caller wakes the drain after the commit (lib/pipeline/wake-intake.ts: a NOTIFY
    -- here would make concurrent upserts commit one at a time).
    v_event_name := %2$L || '.created';
    v_event_id := uuid_generate_v7();
    WITH r AS (
      INSERT INTO %3$I AS t (project_id, %6$s, data) VALUES (p_project, %7$s, coalesce(v_data, '{}'::jsonb))
      RETURNING t.*),
    i AS (
      INSERT INTO %4$I (project_id, source, external_id, %5$I, metadata)
      SELECT p_project, x.source, x.external_id, r.id, x.metadata
      FROM r, jsonb_to_recordset(v_pairs) AS x(source text, external_id text, metadata jsonb)
      ORDER BY x.source COLLATE "C", x.external_id COLLATE "C"
      ON CONFLICT (project_id, source, external_id) DO NOTHING
      RETURNING 1),
    ev AS (
      SELECT r.id, jsonb_build_object(
          'identifier', (SELECT jsonb_agg(jsonb_build_object('source', p->>'source', 'external_id', p->>'external_id') ORDER BY n)
                         FROM jsonb_array_elements(v_pairs) WITH ORDINALITY AS x(p, n)),
          'data', r.data)
        || (SELECT jsonb_object_agg(c, to_jsonb(r)->c) FROM unnest(v_cols) c) AS data
      FROM r),
    e AS (
      INSERT INTO events (project_id, id, name, user_id, organization_id, data, origin, occurred_at)
      SELECT p_project, v_event_id, v_event_name,
             CASE WHEN %2$L = 'user' THEN ev.id END, CASE WHEN %2$L = 'organization' THEN ev.id END,
             ev.data, 'system', now()
      FROM ev),
    q AS (
      INSERT INTO event_intake (project_id, id, kind, name, data, occurred_at, recorded)
      SELECT p_project, v_event_id, %2$L, v_event_name, ev.data, now(), true FROM ev),
    a AS (
      INSERT INTO schedule_assignments (project_id, schedule_id, %5$I, state, interval, anchor, cycle, occurrence_at)
      SELECT p_project, v_schedule, r.id, 'active', (v_anniversary->>'interval')::interval,
             date_trunc('milliseconds', r.created_at), 1,
             date_trunc('milliseconds', r.created_at) + (v_anniversary->>'interval')::interval
      FROM r
      ON CONFLICT DO NOTHING RETURNING id, occurrence_at),
    f AS (
      INSERT INTO schedule_firings (project_id, assignment_id, offset_id, cycle, fire_at, state)
      SELECT p_project, a.id, o.id, 1, f.fire_at,
             CASE WHEN f.fire_at < now() - (p_conf->>'late_limit')::interval THEN 'skipped' ELSE 'pending' END
      FROM a
      CROSS JOIN (SELECT o.id, o.direction, o."offset" FROM schedule_offsets o
                  WHERE o.project_id = p_project AND o.schedule_id = v_schedule FOR KEY SHARE) o
      CROSS JOIN LATERAL (SELECT a.occurrence_at + CASE o.direction WHEN 'after' THEN o."offset"::interval ELSE -o."offset"::interval END AS fire_at) f
      ON CONFLICT DO NOTHING)
    -- The response: the record as inserted, with its pairs as written (one created_at, so in the read
    -- endpoints' order: source, then external id).
    SELECT json_build_object('created', true, 'event', true, 'row', to_json(r), 'identifier', (
             SELECT json_agg(json_build_object('source', x.source, 'external_id', x.external_id, 'metadata', x.metadata)
                             ORDER BY x.source COLLATE "C", x.external_id COLLATE "C")
             FROM jsonb_to_recordset(v_pairs) AS x(source text, external_id text, metadata jsonb))),
           (SELECT count(*) FROM i)
      INTO v_result, v_added FROM r;
    -- A pair a concurrent creator just took came back unwritten: everything rolls back, and the caller retries.
    IF v_added < v_new THEN
      RAISE EXCEPTION USING ERRCODE = '40001', MESSAGE = '%1$s: a concurrent transaction took a new identifier; retry';
    END IF;
    RETURN v_result;
  END IF;

  -- An existing record.
  v_id := (v_owners->0->>2)::uuid;
  -- Pairs to write: new ones, and known ones carrying metadata to merge.
  SELECT coalesce(jsonb_agg(p), '[]'::jsonb),
         count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(v_owners) o WHERE o->>0 = p->>'source' AND o->>1 = p->>'external_id'))
    INTO v_write, v_new
    FROM jsonb_array_elements(v_pairs) p
    WHERE jsonb_typeof(p->'metadata') = 'object'
       OR NOT EXISTS (SELECT 1 FROM jsonb_array_elements(v_owners) o WHERE o->>0 = p->>'source' AND o->>1 = p->>'external_id');

  IF jsonb_array_length(v_write) > 0 THEN
    -- In one global order, so concurrent writers of the same pairs queue rather than deadlock.
    WITH w AS (
      INSERT INTO %4$I AS t (project_id, source, external_id, %5$I, metadata)
      SELECT p_project, x.source, x.external_id, v_id, x.metadata
      FROM jsonb_to_recordset(v_write) AS x(source text, external_id text, metadata jsonb)
      ORDER BY x.source COLLATE "C", x.external_id COLLATE "C"
      ON CONFLICT (project_id, source, external_id) DO UPDATE SET metadata = coalesce(t.metadata, '{}'::jsonb) || excluded.metadata
        WHERE t.%5$I = excluded.%5$I AND excluded.metadata IS NOT NULL
      RETURNING (t.xmax::text = '0') AS inserted)
    SELECT count(*) FILTER (WHERE inserted) INTO v_added FROM w;
    IF v_added < v_new THEN
      RAISE EXCEPTION USING ERRCODE = '40001', MESSAGE = '%1$s: a concurrent transaction took a new identifier; retry';
    END IF;
  END IF;

  IF v_cc <> '{}'::jsonb OR v_data IS NOT NULL THEN
    -- Shallow merge; the changed keys against the row as it is now (the lock above was taken by an
    -- earlier statement, so this one reads the latest committed version).
    SELECT to_jsonb(r) INTO v_row FROM %3$I r WHERE r.project_id = p_project AND r.id = v_id;
    v_patch := CASE WHEN v_data IS NULL OR v_data = '{}'::jsonb THEN NULL ELSE v_data END;
    v_changed := ARRAY(SELECT c FROM unnest(v_cols) WITH ORDINALITY u(c, n) WHERE v_cc ? c AND (v_row->>c) IS DISTINCT FROM (v_cc->>c) ORDER BY n)
      || ARRAY(SELECT 'data.' || d.key FROM jsonb_each(coalesce(v_patch, '{}'::jsonb)) d WHERE (v_row->'data') -> d.key IS DISTINCT FROM d.value ORDER BY d.key);
    IF cardinality(v_changed) > 0 THEN
      UPDATE %3$I SET %8$s, data = CASE WHEN v_patch IS NULL THEN data ELSE data || v_patch END, updated_at = now()
        WHERE project_id = p_project AND id = v_id;
    END IF;
  END IF;
  IF v_added > 0 THEN v_changed := ARRAY['identifier'] || v_changed; END IF;
  IF cardinality(v_changed) > 0 THEN
    v_event_name := %2$L || '.updated';
    v_event_data := jsonb_build_object('changed', to_jsonb(v_changed));
  END IF;

  -- Totals across requests (lib/identity/record-totals.ts), for a record this write grew.
  IF v_data IS NOT NULL OR jsonb_array_length(v_write) > 0 THEN
    SELECT (SELECT count(*)::int FROM %4$I i WHERE i.project_id = r.project_id AND i.%5$I = r.id) AS identifiers,
           octet_length(r.data::text) AS data_bytes,
           (SELECT coalesce(sum(octet_length(i.metadata::text)), 0)::int FROM %4$I i WHERE i.project_id = r.project_id AND i.%5$I = r.id) AS metadata_bytes
      INTO v_totals FROM %3$I r WHERE r.project_id = p_project AND r.id = v_id;
    -- (Nested: a field of a record never assigned cannot be read, even behind a false AND.)
    IF v_totals.identifiers > (p_conf->>'max_identifiers')::int OR v_totals.data_bytes > (p_conf->>'max_data_bytes')::int
       OR v_totals.metadata_bytes > (p_conf->>'max_data_bytes')::int THEN
      RAISE EXCEPTION USING ERRCODE = 'RL422', MESSAGE = '%1$s: record totals exceeded', DETAIL = row_to_json(v_totals)::text;
    END IF;
  END IF;

  -- The system event and its intake row (lib/events/record-system-events.ts), in this transaction. The
  -- caller wakes the drain after the commit (lib/pipeline/wake-intake.ts: a NOTIFY here would make
  -- concurrent upserts commit one at a time).
  IF v_event_name IS NOT NULL THEN
    v_event_id := uuid_generate_v7();
    WITH e AS (
      INSERT INTO events (project_id, id, name, user_id, organization_id, data, origin, occurred_at)
      VALUES (p_project, v_event_id, v_event_name,
              CASE WHEN %2$L = 'user' THEN v_id END, CASE WHEN %2$L = 'organization' THEN v_id END,
              v_event_data, 'system', now()))
    INSERT INTO event_intake (project_id, id, kind, name, data, occurred_at, recorded)
    VALUES (p_project, v_event_id, %2$L, v_event_name, v_event_data, now(), true);
  END IF;

  -- The response: the record with its identifiers, ordered as the read endpoints order them.
  SELECT json_build_object('created', false, 'event', v_event_name IS NOT NULL, 'row', to_json(r), 'identifier', coalesce((
    SELECT json_agg(json_build_object('source', i.source, 'external_id', i.external_id, 'metadata', i.metadata)
                    ORDER BY i.created_at, i.source COLLATE "C", i.external_id COLLATE "C")
    FROM %4$I i WHERE i.project_id = r.project_id AND i.%5$I = r.id), '[]'::json))
    INTO v_result FROM %3$I r WHERE r.project_id = p_project AND r.id = v_id;
  RETURN v_result;
END
$fn$;
$tpl$,
      k.fn, k.kind, k.records, k.idents, k.idcol,
      (SELECT string_agg(format('%I', c), ', ') FROM unnest(k.cols) c),
      (SELECT string_agg(format('v_cc->>%L', c), ', ') FROM unnest(k.cols) c),
      (SELECT string_agg(format('%1$I = CASE WHEN v_cc ? %2$L THEN v_cc->>%2$L ELSE %1$I END', c, c), ', ') FROM unnest(k.cols) c),
      (SELECT format('ARRAY[%s]::text[]', string_agg(format('%L', c), ', ')) FROM unnest(k.cols) c));
  END LOOP;
END
$do$;
