/**
 * Where a revision's processed point cloud (application/vnd.platform.pointcloud) is kept:
 * stored as written, not gzipped, so that viewers read it with HTTP range requests (its
 * nodes are read one by one, never the whole file).
 */
export const pointCloudKey = (modelId: string, name: string) => `pointclouds/${modelId}/${name}.bimcloud`;
