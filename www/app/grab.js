// grab.js: grab and pull in the full page's view, and a tap on a joint's marker to chart it.
import { app } from './page.js';
import { chartJoint } from './scenario.js';

/** Grab and pull: a press on a body in the view (mouse or touch, no modifier key) pulls it
 * towards the pointer with a spring, in the plane through the grabbed point facing the camera,
 * on every run on the page; letting go ends the pull. A press on empty space, or with shift,
 * alt, ctrl or meta held, orbits the camera as before. A tap (press and release within TAP_PX)
 * on a joint's marker, within JOINT_PX of it (a finger: JOINT_TOUCH_PX), charts that joint's
 * reaction; a press there that moves on grabs the body under it, or orbits. */
const TAP_PX = 6, JOINT_PX = 12, JOINT_TOUCH_PX = 24;

/** The joint whose marker is drawn nearest to client point (x, y), within `radius` px, or -1. */
function jointNear(x, y, radius) {
  const p = app.player, r = p.renderer.camera;
  const js = p.scrub ? p.scrub.runs[0].joints : p.run.joints;
  let near = -1, best = radius;
  for (let j = 0; j < js.length / 3; j++) {
    const [sx, sy] = r.toScreen(js[3 * j], js[3 * j + 1], js[3 * j + 2]);
    const d = Math.hypot(sx - x, sy - y);
    if (d < best) { best = d; near = j; }
  }
  return near;
}

export function wireGrab(p) {
  const r = p.renderer.camera; // the view's camera: its rays, picking and pointer controls
  let plane = null, tap = null;
  const grabAt = (x, y) => {
    if (p.scrub || p.run.error) return false;
    const hit = r.pick(x, y, p.run.poses, p.run.sizes);
    if (!hit) return false;
    plane = { point: hit.hit, normal: hit.forward };
    p.grab(hit.body, hit.point, hit.hit);
    if (!p.playing) p.setPlaying(true);
    return true;
  };
  r.onGrab = (e) => {
    if (!p.run) return false;
    const near = jointNear(e.clientX, e.clientY, e.pointerType === 'touch' ? JOINT_TOUCH_PX : JOINT_PX);
    if (near >= 0) { tap = { joint: near, x: e.clientX, y: e.clientY }; return true; } // a tap, until it moves
    return grabAt(e.clientX, e.clientY);
  };
  r.onDrag = (e) => {
    if (tap) {
      if (Math.hypot(e.clientX - tap.x, e.clientY - tap.y) < TAP_PX) return undefined;
      const { x, y } = tap;
      tap = null;
      if (!grabAt(x, y)) return 'orbit'; // no body under the press: the drag orbits
    }
    const t = plane && r.onPlane(e.clientX, e.clientY, plane.point, plane.normal);
    if (t) p.drag(t);
    return undefined;
  };
  r.onRelease = () => {
    if (tap) { chartJoint(tap.joint); tap = null; return; }
    plane = null;
    p.release();
  };
}
