-- A revision is a BIM model (an IFC: products, scene, plans) or a point cloud (a scan,
-- E57/LAS/LAZ, processed into application/vnd.platform.pointcloud: no products). A point
-- cloud revision keeps its processed file, its size, its point count and the version of
-- the format it was written in; its scene and plans columns stay null.
ALTER TABLE revisions ADD COLUMN model_type text NOT NULL DEFAULT 'bim' CHECK (model_type IN ('bim', 'point-cloud'));
ALTER TABLE revisions ADD COLUMN point_count bigint;
ALTER TABLE revisions ADD COLUMN pointcloud_key text;
ALTER TABLE revisions ADD COLUMN pointcloud_size bigint;
ALTER TABLE revisions ADD COLUMN pointcloud_version integer;
