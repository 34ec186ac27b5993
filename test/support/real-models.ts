/**
 * Real IFC files written by others, served from the BIM_MODELS folder (default
 * ../shared/models, MANIFEST.tsv there says where each comes from) at /models/<file>.
 * Only test/real-models/ uses them: `npm test` leaves that folder out when BIM_MODELS
 * does not exist, and CI requires it.
 */
export const REAL_MODELS = {
  duplex: '/models/Duplex_A_20110907.ifc',
  fzk: '/models/AC20-FZK-Haus.ifc',
  helloWall: '/models/hello-wall.ifc',
  tekla: '/models/Mini_Project_Tekla.ifc',
  location: '/models/example_project_location.ifc',
  bpi: '/models/bpi-office.ifc',
  pcert: '/models/PCERT_Building-Architecture_IFC4.ifc',
  grid: '/models/grid-placement.ifc',
} as const;
