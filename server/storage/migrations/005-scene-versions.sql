-- Which version of the scene format a revision's scene is (formats/scene.ts): revisions
-- whose scene is missing or older are processed again (jobs/scene-job.ts).
ALTER TABLE revisions ADD COLUMN scene_version integer;
UPDATE revisions SET scene_version = 1 WHERE scene_key IS NOT NULL;
