// Server tests that double as soak parts (bench/soak.mjs) scale up under SOAK=1 and leave
// their figures in bench/results/soak/<part>.json.
export { soaking, writeSoakFigures } from '../../bench/soak/figures.mjs';
