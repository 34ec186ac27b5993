-- The scene an import writes for the viewers (application/vnd.platform.scene): its blob
-- and size. Null for revisions processed before scenes existed.
ALTER TABLE revisions ADD COLUMN scene_key text;
ALTER TABLE revisions ADD COLUMN scene_size bigint;
