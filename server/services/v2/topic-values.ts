import type { Sql } from '../../storage/database.js';
import { badRequest } from '../errors.js';
import { fillRequiredValues } from './board-fields.js';
import { checkValue, itemsOf, type FieldType } from './custom-fields.js';

/**
 * The values BCF topics carry for their board's custom-field instances (an addition,
 * docs/BCF.md): `platform_custom_fields: [{id, name, type, value}]` in the topic JSON,
 * one entry per enabled instance in the board's order (value null when the topic has
 * none); `[{id, value}]` in a create or update body sets the values listed (null clears
 * an optional one) and keeps the others. A required instance always has a value: the
 * default when none was given; null for it is a 400.
 */
export interface TopicValue {
  id: string;
  name: string;
  type: FieldType;
  value: string | number | null;
}

/** SQL for the topic JSON's list, of the topic `t` (a column of services/bcf/topics.ts's queries). */
export const TOPIC_VALUES_COLUMN = `(SELECT coalesce(json_agg(json_build_object('id', i.field_id, 'name', f.name, 'type', f.type, 'value', v.value) ORDER BY i.position), '[]'::json)
  FROM bcf_board_custom_fields i JOIN custom_fields f ON f.id = i.field_id
  LEFT JOIN bcf_topic_custom_values v ON v.board_id = i.board_id AND v.field_id = i.field_id AND v.topic_guid = t.guid
  WHERE i.board_id = t.board_id AND NOT i.disabled) AS custom_values`;

type InstanceRow = { id: string; type: FieldType; required: boolean; disabled: boolean; current: string | number | null };

/** Writes the values of a created or updated topic's body (`platform_custom_fields`), then the defaults of required instances it lacks. */
export async function writeTopicValues(tx: Sql, boardId: string, topicGuid: string, input: unknown): Promise<void> {
  if (input !== undefined && input !== null) {
    if (!Array.isArray(input)) throw badRequest('`platform_custom_fields` must be an array of {id, value}');
    const instances = await tx.query<InstanceRow>(
      `SELECT i.field_id AS id, f.type, i.required, i.disabled, v.value AS current FROM bcf_board_custom_fields i JOIN custom_fields f ON f.id = i.field_id
       LEFT JOIN bcf_topic_custom_values v ON v.board_id = i.board_id AND v.field_id = i.field_id AND v.topic_guid = $2
       WHERE i.board_id = $1`,
      [boardId, topicGuid],
    );
    const seen = new Set<string>();
    for (const [n, entry] of input.entries()) {
      const key = `platform_custom_fields[${n}]`;
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw badRequest(`\`${key}\` must be an object {id, value}`);
      const { id, value } = entry as { id?: unknown; value?: unknown };
      const instance = instances.find((i) => i.id === id && !i.disabled);
      if (!instance) throw badRequest(`\`${key}.id\`: ${JSON.stringify(id ?? null)} is not an enabled custom field of the issue board`);
      if (seen.has(instance.id)) throw badRequest(`\`${key}.id\`: custom field (${instance.id}) is listed twice`);
      seen.add(instance.id);
      if (value === null || value === undefined) {
        if (instance.required) throw badRequest(`\`${key}.value\`: custom field (${instance.id}) is required on this issue board`);
        await tx.query('DELETE FROM bcf_topic_custom_values WHERE board_id = $1 AND topic_guid = $2 AND field_id = $3', [boardId, topicGuid, instance.id]);
        continue;
      }
      const items = instance.type === 'enumeration' ? await itemsOf(tx, instance.id) : [];
      const checked = checkValue(instance, items, value, `${key}.value`, instance.current);
      await tx.query(
        `INSERT INTO bcf_topic_custom_values (board_id, topic_guid, field_id, value) VALUES ($1, $2, $3, $4)
         ON CONFLICT (board_id, topic_guid, field_id) DO UPDATE SET value = EXCLUDED.value`,
        [boardId, topicGuid, instance.id, JSON.stringify(checked)],
      );
    }
  }
  await fillRequiredValues(tx, boardId, topicGuid);
}
