/**
 * How plans are drawn: colours and line widths in screen pixels (lines keep their
 * width at every zoom: vector-effect non-scaling-stroke). Set as SVG presentation
 * attributes, so a serialised SVG (screenshot) looks the same.
 */
export const PLAN_STYLE = {
  background: '#ffffff',
  spaceFill: '#eef1f5',
  spaceStroke: '#a9b3bf',
  spaceStrokeWidth: 0.75,
  solidFill: '#3d3d3d',
  solidStroke: '#111111',
  solidStrokeWidth: 1,
  doorStroke: '#5a3c1e',
  windowStroke: '#2f6db3',
  otherStroke: '#333333',
  cutStrokeWidth: 1,
  belowStroke: '#8c8c8c',
  belowStrokeWidth: 0.5,
  symbolStroke: '#7a5a3a',
  symbolStrokeWidth: 0.75,
  labelFont: '12px system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif',
  labelSize: 12,
  labelFill: '#1f2933',
  labelHalo: '#ffffff',
  viewpointColor: '#e02020',
  markerColor: '#1e73d8',
} as const;
