import { sql, type SQL } from "drizzle-orm";

/** Channel on which deciding deliveries wakes the senders (worker/delivery-loop.ts). */
export const DESTINATIONS_CHANNEL = "relay_destinations";

const iso = (col: SQL) => sql`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Whether destination `d` subscribes to event `e`: its names and patterns (`*`, `list.*`) and its data
 * filter (containment, as `match` works). The one home of the subscription rule.
 */
export const subscribedSql = sql`(
  exists (select 1 from unnest(d.events) p
    where p = '*' or p = e.name or (right(p, 2) = '.*' and starts_with(e.name, left(p, -1))))
  and (d.filter is null or e.data @> d.filter))`;

/**
 * Inserts one pending delivery per (event of `ev`, subscribed destination of `dests`), each with its
 * message: `{type, timestamp, data: {event, user, organization?, list?, journey?}}`. `ev` and `dests`
 * are relations with the columns of `events` and `destinations`. Returns the number decided.
 */
export function insertDeliveriesSql(projectId: string, ev: SQL, dests: SQL): SQL {
  return sql`
    with ev as (${ev}), d as (${dests}), made as (
      insert into destination_deliveries (project_id, destination_id, event_id, event_name, user_id, payload, next_attempt_at)
      select ${projectId}::uuid, d.id, e.id, e.name, e.user_id,
        jsonb_build_object('type', e.name, 'timestamp', ${iso(sql`e.occurred_at`)}, 'data',
          jsonb_build_object(
            'event', jsonb_build_object('id', e.id, 'name', e.name, 'data', e.data,
              'occurred_at', ${iso(sql`e.occurred_at`)}, 'received_at', ${iso(sql`e.received_at`)}),
            'user', u.obj)
          || case when o.obj is not null then jsonb_build_object('organization', o.obj) else '{}'::jsonb end
          || case when e.name like 'list.%' and e.data ? 'list_id'
               then jsonb_build_object('list', jsonb_build_object('id', e.data->'list_id', 'name', e.data->'list_name'))
               else '{}'::jsonb end
          || case when e.name like 'journey.%' and e.data ? 'journey_id'
               then jsonb_build_object('journey', jsonb_build_object('id', e.data->'journey_id', 'name', e.data->'journey_name',
                 'entry_id', e.data->'entry_id'))
               else '{}'::jsonb end),
        now()
      from ev e
      join d on ${subscribedSql}
      left join lateral (
        select jsonb_build_object('id', u.id, 'email', u.email, 'phone', u.phone, 'locale', u.locale, 'timezone', u.timezone,
          'data', u.data, 'identifiers', coalesce((
            select jsonb_agg(jsonb_build_object('source', i.source, 'external_id', i.external_id) order by i.source, i.external_id)
            from user_identifiers i where i.project_id = u.project_id and i.user_id = u.id), '[]'::jsonb)) as obj
        from users u where u.project_id = ${projectId}::uuid and u.id = e.user_id) u on true
      left join lateral (
        select jsonb_build_object('id', o.id, 'name', o.name, 'data', o.data, 'identifiers', coalesce((
            select jsonb_agg(jsonb_build_object('source', i.source, 'external_id', i.external_id) order by i.source, i.external_id)
            from organization_identifiers i where i.project_id = o.project_id and i.organization_id = o.id), '[]'::jsonb)) as obj
        from organizations o where o.project_id = ${projectId}::uuid and o.id = e.organization_id) o on true
      returning 1
    ), woken as (select pg_notify(${DESTINATIONS_CHANNEL}, '') where exists (select 1 from made))
    select (select count(*) from made)::int as n from (select 1) one left join woken on true`;
}
