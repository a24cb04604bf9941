-- One upsert of one user or organization in one call (one round trip instead of about ten): POST /users
-- and POST /organizations. lib/identity/upsert-one.ts is its caller and states the rules; it passes the
-- table and column names, the limits and the anniversary definition in p_conf, so TypeScript stays their
-- one home. The set-based path (lib/identity/upsert-records.ts) applies the same rules to batches.
--
-- p_change: {identifier: [{source, external_id, metadata?}] (deduplicated), columns: {col: text|null}, data?}
-- Returns {conflict: [[source, external_id, record id], ...]} when the identifiers name two records
-- (nothing written), else {created, row, identifier}. Raises 40001 when a concurrent transaction took a
-- new identifier (the caller retries the call), and RL422 with the totals as JSON detail when the write
-- would take the record past a limit (everything rolls back).
CREATE OR REPLACE FUNCTION relay_upsert_record(p_project uuid, p_change jsonb, p_conf jsonb) RETURNS json
LANGUAGE plpgsql AS $fn$
DECLARE
  v_records text := p_conf->>'records';
  v_idents text := p_conf->>'identifiers';
  v_idcol text := p_conf->>'id_column';
  v_kind text := p_conf->>'kind';
  v_cols text[] := ARRAY(SELECT jsonb_array_elements_text(p_conf->'columns'));
  v_pairs jsonb := p_change->'identifier';
  v_cc jsonb := coalesce(p_change->'columns', '{}'::jsonb);
  v_data jsonb := p_change->'data';
  v_anniversary jsonb := p_conf->'anniversary';
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
  IF v_kind NOT IN ('user', 'organization') THEN
    RAISE EXCEPTION 'relay_upsert_record: unknown kind %', v_kind;
  END IF;

  -- The owners of the given pairs, their records locked in id order (as the batch path locks them).
  EXECUTE format($q$
    SELECT coalesce(jsonb_agg(jsonb_build_array(q.s, q.e, q.rid)), '[]'::jsonb) FROM (
      SELECT i.source AS s, i.external_id AS e, i.rid
      FROM jsonb_to_recordset($2) AS x(source text, external_id text)
      -- One primary-key probe per pair (OFFSET 0 keeps the subquery from being flattened): planned as
      -- a join, the lookup scanned all of the project's identifiers, a cost growing with the table.
      CROSS JOIN LATERAL (
        SELECT i.source, i.external_id, i.%1$I AS rid FROM %2$I i
        WHERE i.project_id = $1 AND i.source = x.source AND i.external_id = x.external_id OFFSET 0) i
      JOIN %3$I r ON r.project_id = $1 AND r.id = i.rid
      ORDER BY r.id FOR UPDATE OF r) q$q$, v_idcol, v_idents, v_records)
    INTO v_owners USING p_project, v_pairs;

  IF (SELECT count(DISTINCT o->>2) FROM jsonb_array_elements(v_owners) o) > 1 THEN
    RETURN json_build_object('conflict', v_owners);
  END IF;

  IF jsonb_array_length(v_owners) = 0 THEN
    -- A new record with every pair; a pair a concurrent creator just took comes back unwritten: retry.
    v_created := true;
    EXECUTE format('INSERT INTO %I AS t (project_id, %s, data) VALUES ($1, %s, $3) RETURNING to_jsonb(t)',
      v_records,
      (SELECT string_agg(format('%I', c), ', ') FROM unnest(v_cols) c),
      (SELECT string_agg(format('$2->>%L', c), ', ') FROM unnest(v_cols) c))
      INTO v_row USING p_project, v_cc, coalesce(v_data, '{}'::jsonb);
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
    EXECUTE format($q$
      WITH w AS (
        INSERT INTO %1$I AS t (project_id, source, external_id, %2$I, metadata)
        SELECT $1, x.source, x.external_id, $2, x.metadata
        FROM jsonb_to_recordset($3) AS x(source text, external_id text, metadata jsonb)
        ORDER BY x.source COLLATE "C", x.external_id COLLATE "C"
        ON CONFLICT (project_id, source, external_id) DO UPDATE SET metadata = coalesce(t.metadata, '{}'::jsonb) || excluded.metadata
          WHERE t.%2$I = excluded.%2$I AND excluded.metadata IS NOT NULL
        RETURNING (t.xmax::text = '0') AS inserted)
      SELECT count(*) FILTER (WHERE inserted) FROM w$q$, v_idents, v_idcol)
      INTO v_added USING p_project, v_id, v_write;
    IF v_added < v_new THEN
      RAISE EXCEPTION USING ERRCODE = '40001', MESSAGE = 'relay_upsert_record: a concurrent transaction took a new identifier; retry';
    END IF;
  END IF;

  IF v_created THEN
    v_event_name := v_kind || '.created';
    v_event_data := jsonb_build_object(
      'identifier', (SELECT jsonb_agg(jsonb_build_object('source', p->>'source', 'external_id', p->>'external_id') ORDER BY n)
                     FROM jsonb_array_elements(v_pairs) WITH ORDINALITY AS x(p, n)),
      'data', v_row->'data')
      || (SELECT jsonb_object_agg(c, v_row->c) FROM unnest(v_cols) c);
  ELSE
    IF v_cc <> '{}'::jsonb OR v_data IS NOT NULL THEN
      -- Shallow merge; the changed keys against the row as it is now (the lock above was taken by an
      -- earlier statement, so this one reads the latest committed version).
      EXECUTE format('SELECT to_jsonb(r) FROM %I r WHERE r.project_id = $1 AND r.id = $2', v_records) INTO v_row USING p_project, v_id;
      v_patch := CASE WHEN v_data IS NULL OR v_data = '{}'::jsonb THEN NULL ELSE v_data END;
      v_changed := ARRAY(SELECT c FROM unnest(v_cols) WITH ORDINALITY u(c, n) WHERE v_cc ? c AND (v_row->>c) IS DISTINCT FROM (v_cc->>c) ORDER BY n)
        || ARRAY(SELECT 'data.' || d.key FROM jsonb_each(coalesce(v_patch, '{}'::jsonb)) d WHERE (v_row->'data') -> d.key IS DISTINCT FROM d.value ORDER BY d.key);
      IF cardinality(v_changed) > 0 THEN
        EXECUTE format('UPDATE %I SET %s, data = CASE WHEN $3::jsonb IS NULL THEN data ELSE data || $3::jsonb END, updated_at = now() WHERE project_id = $1 AND id = $2',
          v_records,
          (SELECT string_agg(format('%1$I = CASE WHEN $4 ? %2$L THEN $4->>%2$L ELSE %1$I END', c, c), ', ') FROM unnest(v_cols) c))
          USING p_project, v_id, v_patch, v_cc;
      END IF;
    END IF;
    IF v_added > 0 THEN v_changed := ARRAY['identifier'] || v_changed; END IF;
    IF cardinality(v_changed) > 0 THEN
      v_event_name := v_kind || '.updated';
      v_event_data := jsonb_build_object('changed', to_jsonb(v_changed));
    END IF;
  END IF;

  -- Totals across requests (lib/identity/record-totals.ts), for a record this write created or grew.
  IF v_created OR v_data IS NOT NULL OR jsonb_array_length(v_write) > 0 THEN
    EXECUTE format($q$
      SELECT (SELECT count(*)::int FROM %2$I i WHERE i.project_id = r.project_id AND i.%3$I = r.id) AS identifiers,
             octet_length(r.data::text) AS data_bytes,
             (SELECT coalesce(sum(octet_length(i.metadata::text)), 0)::int FROM %2$I i WHERE i.project_id = r.project_id AND i.%3$I = r.id) AS metadata_bytes
      FROM %1$I r WHERE r.project_id = $1 AND r.id = $2$q$, v_records, v_idents, v_idcol)
      INTO v_totals USING p_project, v_id;
    IF v_totals.identifiers > (p_conf->>'max_identifiers')::int OR v_totals.data_bytes > (p_conf->>'max_data_bytes')::int
       OR v_totals.metadata_bytes > (p_conf->>'max_data_bytes')::int THEN
      RAISE EXCEPTION USING ERRCODE = 'RL422', MESSAGE = 'relay_upsert_record: record totals exceeded', DETAIL = row_to_json(v_totals)::text;
    END IF;
  END IF;

  -- The system event and its intake row (lib/events/record-system-events.ts), in this transaction.
  IF v_event_name IS NOT NULL THEN
    v_event_id := uuid_generate_v7();
    INSERT INTO events (project_id, id, name, user_id, organization_id, data, origin, occurred_at)
    VALUES (p_project, v_event_id, v_event_name,
            CASE WHEN v_kind = 'user' THEN v_id END, CASE WHEN v_kind = 'organization' THEN v_id END,
            v_event_data, 'system', now());
    INSERT INTO event_intake (project_id, id, kind, name, data, occurred_at, recorded)
    VALUES (p_project, v_event_id, v_kind, v_event_name, v_event_data, now(), true);
    PERFORM pg_notify(p_conf->>'channel', '');
  END IF;

  -- The creation hook: the built-in anniversary assignment and its firings (lib/schedules/anniversary.ts).
  IF v_created THEN
    SELECT s.id INTO v_schedule FROM schedules s WHERE s.project_id = p_project AND s.name = v_anniversary->>'name';
    IF v_schedule IS NULL THEN
      INSERT INTO schedules (project_id, name, type, builtin)
      VALUES (p_project, v_anniversary->>'name', v_anniversary->>'type', v_anniversary->>'builtin')
      ON CONFLICT DO NOTHING RETURNING id INTO v_schedule;
      IF v_schedule IS NOT NULL THEN
        INSERT INTO schedule_offsets (project_id, schedule_id, "offset", offset_key, direction)
        VALUES (p_project, v_schedule, v_anniversary->>'offset', v_anniversary->>'offset_key', v_anniversary->>'direction');
      ELSE
        SELECT s.id INTO v_schedule FROM schedules s WHERE s.project_id = p_project AND s.name = v_anniversary->>'name';
      END IF;
    END IF;
    -- Anchored at creation to the millisecond (as the batch path passes it through a JavaScript Date).
    EXECUTE format($q$
      INSERT INTO schedule_assignments (project_id, schedule_id, %I, state, interval, anchor, cycle, occurrence_at)
      VALUES ($1, $2, $3, 'active', $4, date_trunc('milliseconds', $5::timestamptz), 1, date_trunc('milliseconds', $5::timestamptz) + $4::interval)
      ON CONFLICT DO NOTHING RETURNING id$q$, v_idcol)
      INTO v_assignment USING p_project, v_schedule, v_id, v_anniversary->>'interval', (v_row->>'created_at')::timestamptz;
    IF v_assignment IS NOT NULL THEN
      INSERT INTO schedule_firings (project_id, assignment_id, offset_id, cycle, fire_at, state)
      SELECT a.project_id, a.id, o.id, a.cycle, f.fire_at,
             CASE WHEN f.fire_at < now() - (p_conf->>'late_limit')::interval THEN 'skipped' ELSE 'pending' END
      FROM schedule_assignments a
      JOIN schedule_offsets o ON o.project_id = a.project_id AND o.schedule_id = a.schedule_id
      CROSS JOIN LATERAL (SELECT a.occurrence_at + CASE o.direction WHEN 'after' THEN o."offset"::interval ELSE -o."offset"::interval END AS fire_at) f
      WHERE a.project_id = p_project AND a.id = v_assignment AND a.state <> 'fired'
      ON CONFLICT DO NOTHING;
    END IF;
  END IF;

  -- The response: the record with its identifiers, ordered as the read endpoints order them.
  EXECUTE format($q$
    SELECT json_build_object('created', $3, 'row', to_json(r), 'identifier', coalesce((
      SELECT json_agg(json_build_object('source', i.source, 'external_id', i.external_id, 'metadata', i.metadata)
                      ORDER BY i.created_at, i.source COLLATE "C", i.external_id COLLATE "C")
      FROM %2$I i WHERE i.project_id = r.project_id AND i.%3$I = r.id), '[]'::json))
    FROM %1$I r WHERE r.project_id = $1 AND r.id = $2$q$, v_records, v_idents, v_idcol)
    INTO v_result USING p_project, v_id, v_created;
  RETURN v_result;
END
$fn$;
