// PieceShape on a real export (see test/piece-shape.test.ts): Duplex's walls cut by
// openings come out of web-ifc with T-junctions, which the sample house's do not.
import { assert } from '../support/assert';
import { RANGE_STRIDE } from '../../src/core/ifc/protocol';
import { pieceVolume, streamModel } from '../support/ifc';
import { REAL_MODELS } from '../support/real-models';

describe('PieceShape on a real model', () => {
  it('sorts a real model: its closed chunks hold only outward-wound solids', async () => {
    let closedPieces = 0;
    let openPieces = 0;
    await streamModel(await (await fetch(REAL_MODELS.duplex)).arrayBuffer(), (chunk) => {
      for (let r = 0; r < chunk.ranges.length; r += RANGE_STRIDE) {
        if (!chunk.closed) {
          openPieces++;
          continue;
        }
        closedPieces++;
        const volume = pieceVolume(chunk, r);
        assert(volume > 0, `piece ${r / RANGE_STRIDE} of a closed chunk encloses a positive volume (${volume})`);
      }
    });
    // Walls cut by openings come out of web-ifc with T-junctions (not closed by this test, so drawn from both sides).
    assert(closedPieces > 250 && openPieces > 0, `Duplex has both (${closedPieces} closed, ${openPieces} not)`);
  });
});
