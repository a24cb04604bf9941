-- relay_upsert_user and relay_upsert_organization as 0019 left them, with one change: the lookup of
-- the pairs' records. 0017 (and 0019) found the stored pairs and locked their records in one statement,
-- a join of the pairs' probes with the records table. PL/pgSQL keeps a generic plan for it, and with the records table
-- estimated small (statistics from when the project was new) that plan scanned the project's records
-- in id order and probed the pairs for each: every POST /users read all of the project's users twice
-- (in a bench, 1,448 index entries per scan of users_project_id_id_pk after 6,000 users; a new user's
-- call cost grew with the project). Now the pairs are probed first, and only the records they name are
-- locked, one key probe each; a new record's call, which names none, skips the lock statement.
-- Everything else is 0019's, unchanged (0017 states the contract; 0019 added the key-share locks of the
-- anniversary schedule and its offsets that its cascade triggers rely on).
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
  v_created boolean := false;
  v_new int;
  v_added int := 0;
  v_patch jsonb;
  v_changed text[] := '{}';
  v_totals record;
  v_event_name text;
  v_event_data jsonb;
  v_event_id uuid;
  v_schedule uuid;
  v_assignment uuid;
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
  ELSE
    v_owners := '[]'::jsonb;
  END IF;

  IF (SELECT count(DISTINCT o->>2) FROM jsonb_array_elements(v_owners) o) > 1 THEN
    RETURN json_build_object('conflict', v_owners);
  END IF;

  IF jsonb_array_length(v_owners) = 0 THEN
    -- A new record with every pair; a pair a concurrent creator just took comes back unwritten: retry.
    v_created := true;
    INSERT INTO %3$I AS t (project_id, %6$s, data) VALUES (p_project, %7$s, coalesce(v_data, '{}'::jsonb))
      RETURNING to_jsonb(t) INTO v_row;
    v_id := (v_row->>'id')::uuid;
    v_write := v_pairs;
    v_new := jsonb_array_length(v_pairs);
  ELSE
    v_id := (v_owners->0->>2)::uuid;
    -- Pairs to write: new ones, and known ones carrying metadata to merge.
    SELECT coalesce(jsonb_agg(p), '[]'::jsonb),
           count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(v_owners) o WHERE o->>0 = p->>'source' AND o->>1 = p->>'external_id'))
      INTO v_write, v_new
      FROM jsonb_array_elements(v_pairs) p
      WHERE jsonb_typeof(p->'metadata') = 'object'
         OR NOT EXISTS (SELECT 1 FROM jsonb_array_elements(v_owners) o WHERE o->>0 = p->>'source' AND o->>1 = p->>'external_id');
  END IF;

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

  IF v_created THEN
    v_event_name := %2$L || '.created';
    v_event_data := jsonb_build_object(
      'identifier', (SELECT jsonb_agg(jsonb_build_object('source', p->>'source', 'external_id', p->>'external_id') ORDER BY n)
                     FROM jsonb_array_elements(v_pairs) WITH ORDINALITY AS x(p, n)),
      'data', v_row->'data')
      || (SELECT jsonb_object_agg(c, v_row->c) FROM unnest(v_cols) c);
  ELSE
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
  END IF;

  -- Totals across requests (lib/identity/record-totals.ts), for a record this write created or grew. A
  -- record just created holds exactly what this call wrote, so its totals need no reading back.
  IF v_created THEN
    SELECT count(*)::int AS identifiers, octet_length((v_row->'data')::text) AS data_bytes,
           coalesce(sum(octet_length(x.metadata::text)), 0)::int AS metadata_bytes
      INTO v_totals FROM jsonb_to_recordset(v_pairs) AS x(metadata jsonb);
  ELSIF v_data IS NOT NULL OR jsonb_array_length(v_write) > 0 THEN
    SELECT (SELECT count(*)::int FROM %4$I i WHERE i.project_id = r.project_id AND i.%5$I = r.id) AS identifiers,
           octet_length(r.data::text) AS data_bytes,
           (SELECT coalesce(sum(octet_length(i.metadata::text)), 0)::int FROM %4$I i WHERE i.project_id = r.project_id AND i.%5$I = r.id) AS metadata_bytes
      INTO v_totals FROM %3$I r WHERE r.project_id = p_project AND r.id = v_id;
  END IF;
  IF v_created OR v_data IS NOT NULL OR jsonb_array_length(v_write) > 0 THEN
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
    INSERT INTO events (project_id, id, name, user_id, organization_id, data, origin, occurred_at)
    VALUES (p_project, v_event_id, v_event_name,
            CASE WHEN %2$L = 'user' THEN v_id END, CASE WHEN %2$L = 'organization' THEN v_id END,
            v_event_data, 'system', now());
    INSERT INTO event_intake (project_id, id, kind, name, data, occurred_at, recorded)
    VALUES (p_project, v_event_id, %2$L, v_event_name, v_event_data, now(), true);
  END IF;

  -- The creation hook: the built-in anniversary assignment and its firings (lib/schedules/anniversary.ts).
  IF v_created THEN
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
    -- Anchored at creation to the millisecond (as the batch path passes it through a JavaScript Date).
    INSERT INTO schedule_assignments (project_id, schedule_id, %5$I, state, interval, anchor, cycle, occurrence_at)
    VALUES (p_project, v_schedule, v_id, 'active', (v_anniversary->>'interval')::interval,
            date_trunc('milliseconds', (v_row->>'created_at')::timestamptz), 1,
            date_trunc('milliseconds', (v_row->>'created_at')::timestamptz) + (v_anniversary->>'interval')::interval)
    ON CONFLICT DO NOTHING RETURNING id INTO v_assignment;
    IF v_assignment IS NOT NULL THEN
      -- The offsets are key-share locked in the statement that uses them (no foreign key does it since 0019).
      WITH o AS (
        SELECT o.project_id, o.schedule_id, o.id, o.direction, o."offset" FROM schedule_offsets o
        WHERE o.project_id = p_project AND o.schedule_id = v_schedule FOR KEY SHARE)
      INSERT INTO schedule_firings (project_id, assignment_id, offset_id, cycle, fire_at, state)
      SELECT a.project_id, a.id, o.id, a.cycle, f.fire_at,
             CASE WHEN f.fire_at < now() - (p_conf->>'late_limit')::interval THEN 'skipped' ELSE 'pending' END
      FROM schedule_assignments a
      JOIN o ON o.project_id = a.project_id AND o.schedule_id = a.schedule_id
      CROSS JOIN LATERAL (SELECT a.occurrence_at + CASE o.direction WHEN 'after' THEN o."offset"::interval ELSE -o."offset"::interval END AS fire_at) f
      WHERE a.project_id = p_project AND a.id = v_assignment AND a.state <> 'fired'
      ON CONFLICT DO NOTHING;
    END IF;
  END IF;

  -- The response: the record with its identifiers, ordered as the read endpoints order them.
  SELECT json_build_object('created', v_created, 'event', v_event_name IS NOT NULL, 'row', to_json(r), 'identifier', coalesce((
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
