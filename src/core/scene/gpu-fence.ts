/**
 * The end of a frame on the GPU: a fence placed after the frame's calls, asked later
 * whether the GPU has got past it. On software GL a frame's drawing ends long after its
 * calls return, so whatever paces frames (streaming frames, point cloud frames, the full
 * frame after the camera rests) counts from here. A fence of a lost context, or of the
 * context before a restore, counts as passed: nothing waits across a context loss.
 */
export class GpuFence {
  private gl: WebGL2RenderingContext | null = null;
  private sync: WebGLSync | null = null;
  /** When the fence was placed (performance.now()). */
  placedAt = 0;

  /** Places a fence after the calls so far (instead of the one before) and flushes them; none on a lost context. */
  place(gl: WebGL2RenderingContext, now = performance.now()): void {
    this.clear();
    if (gl.isContextLost()) return;
    this.gl = gl;
    this.sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    this.placedAt = now;
    gl.flush();
  }

  /** A fence is placed and not yet seen passed. */
  get pending(): boolean {
    return this.sync !== null;
  }

  /** Has the GPU got past the fence (true when there is none)? A passed fence is let go. */
  passed(): boolean {
    const { gl, sync } = this;
    if (!gl || !sync) return true;
    if (!gl.isContextLost() && gl.isSync(sync) && gl.getSyncParameter(sync, gl.SYNC_STATUS) !== gl.SIGNALED) return false;
    this.clear();
    return true;
  }

  /** Lets the fence go, passed or not. */
  clear(): void {
    const { gl, sync } = this;
    if (gl && sync && !gl.isContextLost() && gl.isSync(sync)) gl.deleteSync(sync);
    this.gl = null;
    this.sync = null;
  }
}
