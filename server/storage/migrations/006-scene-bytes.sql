-- A scene's size unpacked (scene_size is what storage holds, gzipped): manifests give it
-- to the viewer, which reads unpacked bytes and reports its progress against them.
ALTER TABLE revisions ADD COLUMN scene_bytes bigint;
