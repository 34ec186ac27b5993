import type { Sql } from '../../storage/database.js';
import { bcfDate } from './versions.js';

/**
 * A topic's history (BCF 3.0's topic events): written in the same transaction as the
 * change they record, so the history never says more or less than what happened.
 */
export interface EventAction {
  type: string;
  value?: string;
}

export async function recordEvent(tx: Sql, boardId: string, topicGuid: string, author: string, actions: EventAction[], date = new Date()): Promise<void> {
  if (!actions.length) return;
  await tx.query('INSERT INTO bcf_topic_events (board_id, topic_guid, date, author, actions) VALUES ($1, $2, $3, $4, $5)', [boardId, topicGuid, date, author, JSON.stringify(actions)]);
}

export async function listEvents(sql: Sql, boardId: string, topicGuid: string) {
  const rows = await sql.query<{ date: Date; author: string; actions: EventAction[] }>('SELECT date, author, actions FROM bcf_topic_events WHERE board_id = $1 AND topic_guid = $2 ORDER BY id', [boardId, topicGuid]);
  return rows.map((r) => ({ topic_guid: topicGuid, date: bcfDate(r.date)!, author: r.author, actions: r.actions }));
}

/** What changed between two states of a topic's fields, as 3.0's action types name it. */
export function changes(before: Record<string, unknown>, after: Record<string, unknown>): EventAction[] {
  const actions: EventAction[] = [];
  const field = (key: string, name: string) => {
    const [was, is] = [before[key] ?? null, after[key] ?? null];
    if (String(was instanceof Date ? was.toISOString() : was) === String(is instanceof Date ? is.toISOString() : is)) return;
    actions.push(is === null ? { type: `${name}_removed` } : { type: `${name}_updated`, value: is instanceof Date ? bcfDate(is) : String(is) });
  };
  field('title', 'title');
  field('topic_status', 'status');
  field('topic_type', 'type');
  field('priority', 'priority');
  field('stage', 'stage');
  field('assigned_to', 'assigned_to');
  field('description', 'description');
  field('due_date', 'due_date');
  const list = (key: string, name: string) => {
    const [was, is] = [(before[key] ?? []) as string[], (after[key] ?? []) as string[]];
    for (const value of is.filter((v) => !was.includes(v))) actions.push({ type: `${name}_added`, value });
    for (const value of was.filter((v) => !is.includes(v))) actions.push({ type: `${name}_removed`, value });
  };
  list('labels', 'label');
  list('reference_links', 'reference_link');
  return actions;
}
