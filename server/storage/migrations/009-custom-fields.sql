-- Custom fields of a project (seed 002, v2 API) with their enumeration items, the
-- custom-field instances of issue boards (a board's fields, in their order) and the
-- values topics of a board carry for them. Ids are 32 hexadecimal digits (newId()).

CREATE TABLE custom_fields (
  id text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  type text NOT NULL CHECK (type IN ('text', 'integer', 'double', 'enumeration', 'date')),
  archived boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL
);
CREATE INDEX custom_fields_project ON custom_fields (project_id, created_at);

-- Items of enumeration fields, in `position` order. A code is unique within its field
-- (checked at the end of a transaction: one PATCH may move a code from item to item).
CREATE TABLE custom_field_items (
  id text PRIMARY KEY,
  field_id text NOT NULL REFERENCES custom_fields(id) ON DELETE CASCADE,
  name text NOT NULL,
  code text,
  disabled boolean NOT NULL DEFAULT false,
  position integer NOT NULL,
  CONSTRAINT custom_field_items_code UNIQUE (field_id, code) DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX custom_field_items_field ON custom_field_items (field_id, position);

-- A board's custom-field instances: one per field, in `position` order. default_value is
-- the JSON value (a string, a number, an enumeration item id); a required one has one.
CREATE TABLE bcf_board_custom_fields (
  board_id uuid NOT NULL REFERENCES bcf_boards(id) ON DELETE CASCADE,
  field_id text NOT NULL REFERENCES custom_fields(id) ON DELETE CASCADE,
  disabled boolean NOT NULL DEFAULT false,
  required boolean NOT NULL DEFAULT false,
  default_value jsonb,
  position integer NOT NULL,
  PRIMARY KEY (board_id, field_id),
  CHECK (NOT required OR default_value IS NOT NULL)
);

-- A topic's value of one of its board's instances; gone with the topic or the instance.
CREATE TABLE bcf_topic_custom_values (
  board_id uuid NOT NULL,
  topic_guid uuid NOT NULL,
  field_id text NOT NULL,
  value jsonb NOT NULL,
  PRIMARY KEY (board_id, topic_guid, field_id),
  FOREIGN KEY (board_id, topic_guid) REFERENCES bcf_topics(board_id, guid) ON DELETE CASCADE,
  FOREIGN KEY (board_id, field_id) REFERENCES bcf_board_custom_fields(board_id, field_id) ON DELETE CASCADE
);
CREATE INDEX bcf_topic_custom_values_field ON bcf_topic_custom_values (board_id, field_id);
