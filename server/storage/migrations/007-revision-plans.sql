-- The storey plans an import writes for the 2D viewer (application/vnd.platform.plans):
-- their blob and stored size. Null for revisions processed before plans existed, which
-- the scene job processes again (jobs/scene-job.ts).
ALTER TABLE revisions ADD COLUMN plans_key text;
ALTER TABLE revisions ADD COLUMN plans_size bigint;
