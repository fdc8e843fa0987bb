// explain.js: the short texts that say what each scenario and each integrator is, which paper
// it comes from and what to look for in the charts, and the collapsible panel that shows them.
// Built with DOM calls and textContent only (never innerHTML), so no text can carry markup.
//
// Every number in these texts carries its unit (s, J, kg, m, rad, rad/s, kg m²/s, 1/s);
// relative errors are called relative. tests/e2e/record.test.mjs checks that.
import { INTEGRATOR_COLORS } from '../shared/names.js';

const NK = 'Nielsen & Krenk 2013, "Multibody motion in implicitly constrained director format with links via explicit constraints" (ECCOMAS Multibody Dynamics)';
const TMZ = 'Terze, Mueller & Zlatar 2013, "Störmer-Verlet integration scheme for multibody system dynamics in Lie-group setting" (DETC2013-12308)';
const STAR = '"Equations of Multi-Body Motion", Simcenter STAR-CCM+ theory guide (index-1 form with Baumgarte stabilisation)';

/** name -> { title, text, look }: what each scenario is and what to look for in the charts. */
export const SCENARIO_TEXT = {
  'free-body': {
    title: 'Free spinning body',
    text: 'One body tumbling in empty space: no gravity, no joints, nothing pushes on it. It is the test case of Terze, Mueller & Zlatar (2013), taken from Krysl & Endres (2005): mass 1 kg, principal moments of inertia 0.9144, 1.098 and 1.66 kg m², started by default with the body angular velocity (0.45549, 0.82623, 0.03476) rad/s (the w1, w2, w3 fields change it). It is not spun about one of its principal axes, so it tumbles: seen from the body, its angular velocity keeps changing (Fig. 1 of the paper).',
    look: 'Nothing exerts a torque, so the energy (0.471 J at the default start) and all three components of the angular momentum about the origin (l1 = 0.417, l2 = 0.907, l3 = 0.058 kg m²/s) must stay exactly constant, even though the body keeps tumbling. Any slope in the energy-error chart or in the momentum lines is the integrator\'s error, not physics. On this body, with no gravity, RATTLE keeps the energy close to round-off too (its rotation step is then the discrete Moser-Veselov map), with a slow growth from rounding; Baumgarte\'s error grows much faster.',
  },
  flip: {
    title: 'Intermediate-axis flip (Dzhanibekov effect)',
    text: 'A free box of 2 m x 1 m x 0.5 m and 12 kg, no gravity, spun at 4 rad/s about its middle axis (the 1 m edge, moment of inertia 4.25 kg m²) with a tiny nudge of 0.01 rad/s about the other two. Spin about the longest or the shortest axis is stable; spin about the middle axis is not: the nudge grows, the box turns over by half a turn, and it keeps flipping back and forth at regular intervals (the "tennis racket theorem").',
    look: 'Watch the box flip in the view while the charts stay calm: energy (34 J) and angular momentum (l2 = 17 kg m²/s) are constant through every flip, because no torque acts. An integrator whose energy or momentum drifts changes the time between flips: compare the integrators over a long run.',
  },
  top: {
    title: 'Heavy spinning top',
    text: 'A square plate of 1 m x 1 m x 0.2 m and 1 kg on a stem: its tip is held at a fixed point 0.5 m below the centre by a ball joint, and gravity pulls on it. It spins at 30 rad/s about its symmetry axis, tilted 0.3 rad from the vertical. Instead of falling over, its axis slowly circles the vertical (precession) and nods up and down a little (nutation).',
    look: 'Gravity\'s torque about the tip is horizontal, so it turns the horizontal momentum components l1 and l2 round and round (the precession) but never changes the vertical one: l3 and the energy are conserved. Try spin = 0 rad/s: the plate then simply falls like a pendulum.',
  },
  'nk-revolute': {
    title: 'Hanging chain with hinges (Nielsen & Krenk, sec. 6.1)',
    text: 'The first example of Nielsen & Krenk (2013): four boxes of 1 m x 0.5 m x 3 m and 12 kg (moments of inertia 9.25, 10.0 and 1.25 kg m²) hung from a fixed point and linked end to end by hinges (revolute joints) whose axes point along x1, so everything moves in the x2-x3 plane. The upper two boxes start at 0.785 rad (45 degrees) from the vertical, the lower two at a right angle to them; the chain is released from rest under gravity 9.81 m/s². The paper uses the step h = 0.01 s.',
    look: 'Energy is conserved: the paper reports it kept to a relative 1e-12 with the director method; over 10 s at h = 0.01 s we measured largest relative energy errors of 3e-13 (director), 4e-3 (RATTLE) and 6e-2 (Baumgarte). The angular momentum l1 is the only non-zero component (l2 and l3 stay 0 kg m²/s because the motion is planar), and l1 is NOT conserved: gravity has a torque about the x1 axis through the hinge, so l1 swings up and down with the chain. The joint violation shows how well each method keeps the links together.',
  },
  'nk-spherical': {
    title: 'Hanging chain with ball joints (Nielsen & Krenk, sec. 6.2)',
    text: 'The second example of Nielsen & Krenk (2013): the same four boxes, now linked by ball joints (spherical joints) that let neighbours turn freely, and the whole start shape turned 0.785 rad (45 degrees) about the x2 axis, so the chain swings in three dimensions. The paper\'s step h = 0.1 s is large (ten steps per second of motion): the director method takes it, but RATTLE and Baumgarte fail at it, so the page gives them h = 0.02 s and h = 0.01 s on this preset unless you set the step yourself.',
    look: 'Energy and the vertical momentum l3 are conserved (gravity is vertical, so it has no torque about the vertical axis through the fixed point); l1 and l2 change. The paper reports energy kept to a relative 1e-12 and l3 to a relative 1e-10 at h = 0.1 s with the director method. Set the step to h = 0.1 s yourself to see RATTLE and Baumgarte stop at the paper\'s step.',
  },
  chain: {
    title: 'Hanging chain of N boxes',
    text: 'A straight chain of N boxes (1 m x 0.5 m x 3 m, 12 kg each; 8 boxes by default, up to 4096 boxes) hung from a fixed point, started straight at an angle from the vertical (0.785 rad by default), from rest or with its tip pushed sideways (push, in m/s). Choose hinges (revolute joints, planar motion) or ball joints (spherical). The joint equations are solved along the chain without fill-in, so the cost of a step grows only in proportion to N: the steps per second in the readout halve when N doubles. Baumgarte\'s explicit step needs a shorter step on long chains: the page gives it at most h = 0.32/N s.',
    look: 'Energy is conserved by the physics. With hinges, l1 changes (gravity has a torque about the hinge axis) and l2 and l3 stay 0 kg m²/s; with ball joints the chain starts in a plane and l3 is conserved. Long chains whip at the free end: watch which integrator still keeps its joints closed there.',
  },
  'double-pendulum': {
    title: 'Double pendulum',
    text: 'Two uniform rods hinged end to end and hung from a fixed hinge, both hinge axes along x1, so the pendulum swings in the x2-x3 plane under gravity 9.81 m/s². Each rod is 1 m long by default and weighs 1 kg per metre; it is a thin box with a square section of 0.05 m rather than a line, so that its three moments of inertia belong to a real body. The upper rod starts at 2 rad and the lower rod at 2.5 rad from the downward vertical, both above the horizontal, released from rest. It is the classic example of chaos: the motion never repeats, and two starts that differ by a hair end up in completely different places after a few seconds. The hinges are the revolute joints of Nielsen & Krenk (2013, eq. 37). For small swings the motion is regular instead: the sum of two normal modes, for two 1 m rods at 2.68 rad/s (the rods swinging together) and 7.18 rad/s (the rods swinging against each other).',
    look: 'In compare mode the integrators part ways after a few seconds even though each keeps the energy well: conserving energy does not mean following the same path, because chaos magnifies every rounding. The relative energy-error chart still tells the methods apart: flat below a relative 1e-11 for the director method, bounded wiggles of a few percent for RATTLE, and growth for Baumgarte (the page gives Baumgarte half the step of the others, h = 0.005 s). Try angle1 = 0.05 rad and angle2 = 0.0715 rad: a small swing in the slow mode alone, which repeats every 2.34 s; angle1 = 0.05 rad and angle2 = -0.105 rad starts the fast mode alone, every 0.875 s.',
  },
  'four-bar': {
    title: 'Four-bar linkage (crank-rocker)',
    text: 'Three rods and the ground form one closed loop through four hinges, all with axes along x1, in a vertical plane: the crank (0.5 m) turns about one ground hinge, the rocker (1.5 m) swings about the other, 2 m away, and the coupler (2 m) joins their free ends. The rods are uniform, 1 kg per metre. The lengths obey Grashof\'s rule (shortest plus longest less than the sum of the other two, the crank the shortest), so the crank can go all the way round while the rocker only rocks back and forth: the mechanism inside windscreen wipers and many machines. It starts with the crank at 1 rad from the ground line, turning at 5 rad/s, under gravity 9.81 m/s². The mechanism has one degree of freedom: the crank angle fixes the rest, and Freudenstein\'s equation of the link lengths gives the rocker angle. The hinges are the revolute joints of Nielsen & Krenk (2013, eq. 37). Counted in three dimensions, four hinges take away more freedom than the three rods have (Gruebler\'s count gives -2 degrees of freedom); three of the hinge equations repeat the others, and the solver finds them at the start and leaves them out.',
    look: 'The loop must stay closed: watch the joint violation chart. The director method and RATTLE close it at every step to the Newton tolerance (1e-12 by default), so the rocker follows Freudenstein\'s equation to about 1e-12 rad; Baumgarte enforces the joints only through the accelerations, and the loop drifts open by up to 2e-4 m over 10 s at its step h = 0.005 s, held back only by alpha and beta (1/s). Gravity makes the crank speed up on the way down and slow down on the way up. The energy (35.2 J at the default start) is conserved by the physics; the director method keeps it to a relative 1e-11 over 10 s.',
  },
  catenary: {
    title: 'Catenary: a chain hung between two points',
    text: 'A chain 10 m long made of N straight links (8 links by default, up to 256 links), uniform rods of 1 kg per metre on ball joints, hung between two fixed points 8 m apart at the same height under gravity 9.81 m/s². The chain and the ground form a closed loop. A hanging cable takes the shape of a catenary, the curve z = a cosh(y/a) of a chain\'s own weight; a chain of N equal links hangs in a polygon whose corners lie on a curve close to it, the closer the more links. Here the chain starts at rest in another shape, a circular arc through the two points, turned 0.5 rad (the tilt) out of the vertical plane: it swings like a skipping rope, and its shape breathes about the hanging one.',
    look: 'Energy is conserved by the physics (there is no friction), but no momentum component is: gravity and the two supports both exert torques. The director method keeps the energy to a relative 1e-13 and the joints closed to 1e-14 m over 10 s. Short links near taut supports make the explicit Baumgarte step unstable unless the step is short: the page gives Baumgarte at most h = 0.04/N s and RATTLE at most h = 0.16/N s. The chain released exactly at rest in its hanging shape (each link\'s slope steeper than the one above it by the same step in its tangent) stays there within 1e-11 m: the tests check that with every integrator.',
  },
  'spring-pendulum': {
    title: 'Elastic pendulum: a body on a spring',
    text: 'A small cube of 1 kg (0.1 m on a side) hangs from a fixed point on a spring of rest length 1 m and stiffness k = 40 N/m by default, under gravity 9.81 m/s². There is no joint: the spring alone holds it, pulling with k times its stretch along the line between its ends, and its energy k (l - 1 m)²/2 counts in the potential energy V. At rest the body would hang at 1 m + g/k = 1.25 m below the point; it starts from rest 0.6 rad (34 degrees) from the vertical and stretched 0.2 m beyond that, so it both swings and bounces, and the two motions trade energy back and forth: the spring\'s length goes between about 0.85 m and 1.64 m. The view draws the spring as a coil whose turns spread as it stretches.',
    look: 'Nothing is lost: the spring gives back all it stores, so E = T + V is conserved. Because the system has a force element, the energy chart shows the balance error |E - E0 - W + D| relative to max(|E0|, 1 J); with no loads and no dampers (W = D = 0 J) it is the energy error itself. The director method keeps it at round-off, 6.5e-12 J over 20 s at h = 0.01 s (E0 = -7.74 J, a relative 1e-12), because its discrete spring force makes the energy change of a step exactly zero; at the same step RATTLE wiggles by up to 3e-3 J and Baumgarte drifts by 2e-2 J. In the energy budget chart T and V swap back and forth while W and D stay at 0 J. The vertical momentum l3 is conserved (neither gravity nor a spring to a point on the vertical axis has a torque about it) and stays 0 kg m²/s for this start.',
  },
  'damped-pendulum': {
    title: 'Damped pendulum: a rod with a damper in its hinge',
    text: 'A uniform rod 1 m long weighing 1 kg hangs from a hinge (axis x1) at a fixed point under gravity 9.81 m/s², released from rest 2 rad (115 degrees) from the downward vertical, above the horizontal. A torsional damper in the hinge resists the turning with a torque of c times the angular velocity, c = 0.2 N m s/rad by default; an optional torsional spring (stiffness in N m/rad, 0 N m/rad by default) pulls the rod back towards hanging straight down. The damper turns motion into heat: each swing is smaller than the last, and after about 15 s the rod hangs still.',
    look: 'E falls, from E0 = 2.04 J to -4.91 J hanging at rest, and D, the energy the damper has taken out, rises by exactly what E loses: it ends at 6.95 J. So the energy chart shows the balance error |E - E0 - W + D| relative to max(|E0|, 1 J): with the director method it stays at round-off, 8e-11 J over 20 s at h = 0.01 s (a relative 4e-11), because its discrete damper takes out exactly what it reports; RATTLE and Baumgarte count D by their own rule and miss by up to 5e-3 J and 2e-2 J, errors that shrink with h². In the energy budget chart T and V swing while D climbs in steps, steepest where the rod passes the bottom fastest; W stays 0 J (nothing drives it).',
  },
  'driven-pendulum': {
    title: 'Driven pendulum: a motor at the hinge',
    text: 'The same rod (1 m, 1 kg, hinged about x1 at a fixed point, gravity 9.81 m/s²) starts at rest hanging straight down. A motor in the hinge turns it with a sinusoidal torque of amplitude 3 N m and frequency 0.5 Hz by default (a push one way, then the other, every 2 s), and a torsional damper of 0.1 N m s/rad resists the turning. The motor\'s peak torque is less than the 4.9 N m gravity exerts on the rod held level, so it cannot lift it straight up; pushing in time with the swing it pumps the rod over the top within 2 s, and from then on the rod tumbles round and swings back irregularly.',
    look: 'Energy flows in and out. The motor does work W (the integral of its torque times the angular velocity, in J): W rises while it pushes the way the rod turns and falls while it brakes it. The damper takes out D, which never decreases. In the energy budget chart W and D climb, about 52 J in and 41 J out over 20 s, and T + V holds the difference. The energy chart shows the balance error |E - E0 - W + D| relative to max(|E0|, 1 J) (E0 = -4.91 J): the director method keeps it at round-off, 3e-11 J over 20 s at h = 0.01 s; at the same step RATTLE misses by 1e-2 J and Baumgarte by 0.7 J. Try a frequency near the rod\'s own for small swings, about 0.6 Hz, or a smaller torque such as 1 N m: the rod then swings without going over the top.',
  },
  'slider-crank': {
    title: 'Slider-crank: a crank driven at constant speed',
    text: 'A flywheel crank (a square plate of 2 kg, 0.48 m on a side, hinged at its centre just behind the mechanism), a connecting rod and a piston of 0.5 kg sliding along the x2 axis on a prismatic joint (a slider), all in the vertical x2-x3 plane under gravity 9.81 m/s². The crank is 0.2 m and the rod 0.6 m long (a uniform rod of 1 kg per metre). A drive prescribes the crank angle: its speed ramps smoothly from 0 rad/s to 6.28 rad/s (one turn a second) over the first 1 s and then stays constant. With speed = 0 rad/s a motor torque of 1 N m, ramped up over 1 s, turns the crank instead, against a damper of 0.1 N m s/rad in its hinge. An optional spring and damper on the piston (spring, in N/m, and piston_damping, in N s/m) pull it back towards where it started. Crank, rod, piston and ground form one closed loop with a single degree of freedom, which the drive takes.',
    look: 'The piston follows the crank exactly: with crank angle phi, crank length r and rod length l, its centre sits at r cos(phi) + sqrt(l² - r² sin²(phi)) along x2, and the director method and RATTLE keep it there to about 1e-12 m (Baumgarte drifts to about 1e-4 m, its joints held only through the accelerations). The drive puts in whatever energy keeps the crank on schedule: in the energy budget chart W rises while the flywheel spins up (about 21 J in the first 5 s with the piston spring at 40 N/m), and with the director method the balance error |E - E0 - W + D| stays at round-off (4e-11 J). Set speed to 0 rad/s to let the motor take over: the crank then speeds up until the damper balances the torque.',
  },
  kapitza: {
    title: "Kapitza's pendulum: upside down and stable",
    text: "A uniform rod 0.5 m long weighing 0.5 kg is hinged at its lower end to a small carriage of 0.2 kg that slides on a vertical rail (a prismatic joint). A drive moves the carriage up and down sinusoidally with amplitude A = 0.05 m and frequency f = 30 Hz by default, and the rod starts 0.2 rad from upright, at rest relative to the carriage. Gravity, 9.81 m/s², pulls the rod over; the fast shaking pushes it back towards upright. Averaged over the shaking, upright is stable when the square of the pivot's peak speed (its amplitude times its angular frequency) exceeds four thirds of g times the rod's length (Kapitza 1951): at A = 0.05 m that means f above about 8.1 Hz.",
    look: 'With the default 30 Hz the rod wobbles about upright (its tilt stays within about 0.43 rad over 10 s) and does not fall. Lower the frequency below the threshold, to 5 Hz, and it falls over and swings below the carriage. The drive does the work that keeps the carriage on its schedule (W in the energy budget), and with the director method the balance error stays at round-off. The shaking is fast, so the step is short: h = 0.001 s, about 33 steps per period at 30 Hz.',
  },
  governor: {
    title: 'Flyball governor (IFToMM benchmark A05): stiff springs',
    text: 'A vertical spindle (a 1 m rod of 0.3 kg) turns at a constant 5 rad/s, kept there by a drive. Two arms (1 m rods of 0.3 kg) are hinged to its top and carry 5 kg balls at their ends; a 3 kg sleeve slides on the spindle (a prismatic joint) and turns with it. In place of the governor\'s lower links, two spring-dampers of 8e5 N/m and 4e4 N s/m, 0.5 m long at rest, join the middle of each arm to the sleeve: the stiff flyball governor of the IFToMM multibody benchmark library. The arms start at 30 degrees from the vertical with everything turning together.',
    look: 'The arms swing out to about 81 degrees (1.413 rad, where the effective potential of the turning frame is back at its start value) and back, lifting the sleeve from 0.13 m to about 0.84 m: the springs, nearly rigid, hardly stretch in that swing, so their dampers hardly damp it. The springs are what make this hard: an integrator that takes their forces explicitly (RATTLE in its half-kicks, Baumgarte in its accelerations) must keep the step below about 5e-5 s, and both fail at 1e-4 s. The director method solves for the spring forces in its Newton iteration, runs at h = 1e-3 s by default (and up to 5e-3 s), converges with second order, and keeps the energy balance at round-off. In compare mode the three share one step, and the page offers 2.5e-5 s, which suits all three; run the director alone at 1e-3 s to see it keep up with the stiff springs in a fortieth of the steps.',
  },
  crane: {
    title: 'Crane: a boom lifted by a hydraulic cylinder, a load on a rope',
    text: 'A boom 3 m long weighing 60 kg is hinged to the ground at its lower end and starts 0.3 rad (17 degrees) above the horizontal. A hydraulic cylinder pushes it up: it runs from a ground point 0.8 m ahead of the hinge and 0.5 m below it to a point 1.2 m along the boom, and a distance driver prescribes its length, which grows by 0.5 m over 2 s along a smooth ramp that starts and stops without a jolt, then holds. A load of 20 kg hangs from the boom\'s tip on a rope 1.5 m long, modelled as a distance joint: a massless rod with a ball joint at each end, so it never goes slack. Gravity is 9.81 m/s² and there is no friction.',
    look: 'The boom rises to 0.88 rad (50 degrees); its tip lifts the load 1.4 m and jerks it sideways, so the load keeps swinging on its rope after the cylinder stops (up to 0.31 rad from the vertical). The cylinder puts in about 711 J (W in the energy budget): the potential energy the boom and the load gain, plus the swing\'s energy. With the director method the balance error |E - E0 - W| stays at round-off (3e-11 J) and the rope and the cylinder hold their lengths to 1e-14 m; RATTLE\'s balance is off by up to 4e-3 J at h = 0.005 s, and Baumgarte lets the joints drift by about 1e-4 m. Try stroke = -0.3 m to lower the boom instead, or a heavier load on a longer rope.',
  },
  'bouncing-ball': {
    title: 'Bouncing ball: Hertz contact with the restitution asked',
    text: 'A rubber ball 0.1 m in radius weighing 1 kg (a solid sphere, E = 10 MPa, Poisson ratio 0.45) falls from 1 m onto the ground under gravity of 9.81 m/s². The ground pushes back with Hertz\'s law (the force grows with the indentation to the power three halves), plus a damping calibrated so that the ball rebounds with exactly the coefficient of restitution asked, e: each rebound is e times as fast as its impact (restitution 0.8 here). Friction, with a coefficient mu = 0.3, acts through a stick spring at the contact point: below the friction limit the contact holds without creeping, beyond it it slides.',
    look: 'Each bounce returns e² of the height: 0.64 m, 0.41 m, 0.26 m, ..., and the bounces come ever faster until the ball rests after nine times the time of its first fall (a geometric series in e), 4.06 s. All the energy the bounces lose shows as D in the energy budget (9.8 J by the end), and the director method keeps the balance E - E0 - W + D at round-off (4e-11 J over the 10 s) while RATTLE and Baumgarte are off by 0.06 J and 0.03 J at the same step. Set the restitution to one and the friction to zero: the ball bounces back to 1 m for ever, the director\'s energy staying within 4e-10 J of 10.79 J. Throw it with speed and spin: it skids on landing until friction makes it roll. Beside it, MuJoCo (choose an integrator under "with MuJoCo") gets the same ball, ground, friction and restitution, but its contact is soft in its own way: a linear spring-damper on the indentation, the same for every mass, as stiff as its step allows (MuJoCo\'s rule: a time constant of at least two steps), with a damping chosen so that it rebounds at the restitution asked, to 1 % (a restitution of 0.21 where a restitution of 0.2 is asked), and Young\'s modulus plays no part. Its ghost bounces to the same heights, and the D of its run counts what its contact takes (the paragraph on MuJoCo says how).',
  },
  'newtons-cradle': {
    title: "Newton's cradle: an impact through a row of touching balls",
    text: 'Five balls 25 mm in radius weighing 0.2 kg each (a hard polymer, E = 100 MPa) hang in a touching row, each from a hinge 0.3 m above its centre. The first is pulled aside by 0.5 rad and let go; it hits the row at about 0.85 m/s. Ball meets ball through Hertz contact (frictionless, restitution 0.95 between two balls); a contact lasts about 2 ms, so the step is 1e-4 s.',
    look: 'The textbook story, one ball in and one ball out, is not what happens with touching balls: the impact runs through the row as a wave: the last ball swings out to 0.13 m (the first was pulled 0.14 m aside), but the fourth follows it 0.02 m and the first bounces back a little, and after a few swings the whole row swings together, at 6 s all five on the same side (Hutzler et al., American Journal of Physics, 2004). With restitution 0.95 the collisions take 0.057 J of the 0.072 J the lifted ball brought in within 10 s; the director method keeps the balance at 8e-12 J, RATTLE and Baumgarte at 6e-4 J and 1e-3 J. With a restitution of one no energy is lost and the director\'s energy holds to 1.5e-11 J. Lift two balls to see two come out (roughly).',
  },
  'ball-pit': {
    title: 'Ball pit: a hundred balls poured into a box',
    text: 'A hundred balls 0.05 m in radius weighing 0.1 kg each start in a loose lattice 0.2 m above the floor of a box made of five planes (the floor and four walls) and fall in under gravity of 9.81 m/s². A ball that light for its size is hollow, a rubber shell about 2.9 mm thick, and a shell is far softer than a solid ball: pressed at a point it rings at about 210 rad/s. Each ball is modelled as a solid ball of a soft material (E = 0.2 MPa) whose Hertz contact rings at that rate (130 to 210 rad/s in the resting pile), so the bottom balls sink about 2 mm. Every ball touches the planes and the other balls with a restitution of 0.5 and friction with a coefficient mu = 0.3, on the planes and between balls. The step is 0.001 s; the impacts that need it are taken in sub-steps.',
    look: 'The balls splash, bounce off each other and the walls, and settle into a heap; the bounces turn their energy into heat, which shows as D in the energy budget, while the director method keeps the balance at its tolerance. Which pairs of balls may touch is found once a step by a sweep along x1 (a broad phase), and a wall is only asked about the balls near it, so a step costs about as much per ball with many balls as with a few (tumble bench, the first 2 s: RATTLE takes 0.10 ms, 0.48 ms and 2.4 ms a step at 100, 400 and 1600 balls, the director 0.34 ms, 1.5 ms and 7.0 ms). Try 400 balls: once they rest, RATTLE runs them at real time in the page. Or try a restitution of one. Check "contact forces": a resting pile of a hundred balls presses with nearly a thousand contact forces (each contact\'s push and its friction), so only the largest are drawn, at most 60 arrows (the readout says how many and from what force, in N): they show where the pile presses hardest, on the floor under its middle.',
  },
  'stop-pendulum': {
    title: 'Pendulum against a stop: a joint limit',
    text: 'A rod 1 m long weighing 1 kg hangs from a hinge under gravity of 9.81 m/s². It is let go 1.2 rad from hanging straight down and swings down through the bottom onto a stop 0.4 rad on the other side: a joint limit, a stiff spring on the hinge\'s angle beyond the stop (it rings at 10 Hz on the rod) with a damping calibrated so that the rod rebounds with the restitution asked (restitution 0.7).',
    look: 'Each impact sends the rod back slower (its rebound speed over its impact speed is the restitution of 0.7), so the swings die down, and the energy the stop takes shows as D in the energy budget: 2.7 J of the rod\'s swing in 10 s. The director method keeps the balance at 1e-11 J through every impact, RATTLE and Baumgarte are off by up to 0.04 and 0.01 J at the same step, 0.005 s; each impact is taken in two sub-steps, since the stop rings at 10 Hz (the readout says when). With a restitution of one the rod swings for ever and the director\'s energy stays within 3e-11 J.',
  },
  incline: {
    title: 'Box on an incline: static and sliding friction',
    text: 'A box of 0.3 m by 0.2 m by 0.1 m weighing 2 kg rests on a plane tilted by 0.6 rad (34 degrees) under gravity of 9.81 m/s². Each of its corners touches the plane through a linear spring (the stiffness of a flat face, shared by its corners) and a stick spring for friction, with a static coefficient mu_s = 0.5 and a kinetic one mu_k = 0.4. The box stays put while tan(angle) is below mu_s, that is below 0.46 rad.',
    look: 'At 0.6 rad the box slides down the slope with a = g (sin a - mu_k cos a) = 2.30 m/s², 7.2 m in the 2.5 s of the run; friction turns the potential energy it loses into heat, which shows as D in the energy budget, and the director method keeps the balance at round-off. Set angle = 0.3 rad: the box does not move at all (no creep: the stick springs hold it, 1e-14 m/s), which regularised friction laws cannot do. RATTLE and Baumgarte take a smaller step here (2e-4 s): at the director\'s 5e-4 s their explicit corner springs lose most of the slide. Choose shape = ball: a solid ball of 0.1 m rolls down at five sevenths of g sin a, 3.96 m/s² (the director measures 3.9565 m/s² over 1 s), its contact point held by static friction; with mu_k = 0.1 and mu_s = 0.1, below two sevenths of tan a, it skids instead, at g (sin a - mu_k cos a) = 4.73 m/s², spinning up as it goes.',
  },
  'falling-chain': {
    title: 'Falling chain: a chain let go just above the floor piles up on it',
    text: 'A chain of 30 links, each a capsule 0.05 m long with caps of 5 mm radius weighing 0.01 kg (0.2 kg per metre), hangs straight but for a slight zig-zag with its lower end 0.05 m above the floor, joined link to link by spherical joints, and is let go. Each link touches the floor with its two caps through Hertz contact (a rubber, E = 10 MPa) with a restitution of 0.3 and friction mu = 0.5; links do not touch each other (their collision filter keeps them apart, so the pile can pass through itself) unless touching is switched on, when they meet as capsules. The step is 2e-4 s; landings that need it are taken in sub-steps.',
    look: 'The chain falls as one until its end meets the floor; from then on the links land one after another and pile up. The floor pushes with more than the weight of what has landed: the textbook flexible chain gives three times that weight (the momentum the arriving links bring adds twice it), and a chain of rigid links pushes harder still, since a landing link tips over and pulls the rest down faster than free fall (Grewal, Johnson and Ruina, American Journal of Physics, 2011). Check "contact forces" to see the pushes on each landing cap. The pile is chaotic: the ratio depends on every detail. The director method keeps E - E0 - W + D at round-off (2e-11 J) while the landings take 2.3 J. Switch touching on and the links pile on each other instead of through each other; the balance then shows an error of about 0.01 J, since a contact point that slides along a link is found anew at each step (an error of first order in the step), and a step costs about twice as much.',
  },
  dominoes: {
    title: 'Dominoes: a wave of falling blocks',
    text: 'Twelve blocks 0.2 m tall, 0.1 m wide and 0.03 m thick, weighing 0.3 kg each, stand in a row 0.12 m apart on the floor under gravity of 9.81 m/s²; the first is tipped forward by 0.25 rad and let go. Each block touches the floor and the others with its eight corners: a corner against a face of the other block, through a linear spring of the face\'s stiffness with a damping for a restitution of 0.3, and friction (mu = 0.4, with the floor and between blocks). The contact is soft (E = 10 MPa, far softer than wood, so that an impact lasts a few milliseconds); the step is 2e-4 s.',
    look: 'Each block tips over onto the next, which tips the one after it: a wave runs down the row, a little faster at each block, since each one falls with the push of all before it. At the end the blocks lean on each other at the angle where a block\'s top edge meets the next one\'s back face, cos(theta) = thickness / spacing: 75.5 degrees at 0.12 m (measured: 75.5 degrees to 75.6 degrees in the middle of the row), while the last lies flat on the floor. The director method keeps E - E0 - W + D at 1e-9 J while the fall turns 2.2 J of the 3.5 J into heat (D: the impacts, the floor\'s friction). RATTLE and Baumgarte come to the same rest (within a degree) but take the stiff corners explicitly: their sums of the losses, in the continuous form, end 0.3 J and 0.2 J off the energy the blocks lost. A corner that slides off the edge of a face lets its dent go (its energy is counted in D); where two blocks\' edges cross, the edges themselves touch. Try spacing = 0.19 m (the blocks barely reach each other) or restitution = 1.',
  },
  billiards: {
    title: 'Billiards: a break',
    text: 'Fifteen pool balls (57.15 mm across, 0.17 kg) are racked in a touching triangle on the cloth of an eight-foot table, 2.24 m by 1.12 m between its four cushions, and the cue ball is shot at the rack at 6 m/s without spin. Ball meets ball through Hertz contact (a hard resin, taken as E = 200 MPa so that an impact lasts about half a millisecond) with a restitution of 0.93 and friction mu = 0.2 (the balls share the cloth\'s material; real balls have mu = 0.05 or so); ball and cloth through Hertz contact with friction mu = 0.2, which makes a sliding ball roll; the cushions are planes with a restitution of 0.75. The step is 1e-4 s, and the impacts of the break are taken in sub-steps where they need them.',
    look: 'The cue ball skids from the start (friction slows it by mu g = 2 m/s² and spins it up) and meets the rack at 0.18 s still skidding; the impact runs through the touching balls in a few milliseconds and spreads them, and the cue ball comes back off the rack, as with touching balls it must (Newton\'s cradle shows the same). By 1 s the skid and the break have taken 2.36 J of the 3.06 J the cue ball brought (D in the energy budget); rolling costs nothing here (real cloth has a rolling resistance Tumble does not model), but the friction of ball on ball at the later meetings takes most of the rest: 3.02 J are gone by 8 s. Friction between balls throws a struck ball a little off the line of centres. The director method keeps the balance E - E0 - W + D at 4e-11 J over the 80000 steps of the 8 s; RATTLE ends 0.012 J off.',
  },
  andrews: {
    title: "Andrews' squeezing mechanism (IFToMM benchmark A03)",
    text: 'Seven bodies in a plane joined by ten hinges into three closed loops that meet at one point: the squeezer of Andrews, from the test set of Hairer & Wanner ("Solving Ordinary Differential Equations II") and benchmark A03 of the IFToMM multibody benchmark library. A motor turns the small crank with a constant torque of 0.033 N m, and a stiff spring (4530 N/m, rest length 0.07785 m) pulls on the third body; there is no gravity. The bodies are tiny (the heaviest weighs 0.0705 kg) and the motion is fast: the crank turns more than two full turns in the 0.03 s the benchmark lasts, so the step is h = 1e-5 s.',
    look: 'At t = 0.03 s the test set gives the seven angles to many digits, computed in minimal coordinates; all three integrators converge to them with second order (at h = 1e-5 s the largest angle error is 7e-5 rad for the director method, 2e-4 rad for RATTLE and 1e-5 rad for Baumgarte). The motor does 0.52 J of work against the spring, and the director method keeps the balance error at 6e-12 J. Play it slowly (a quarter of real time): 0.03 s of motion is over at once.',
  },
  custom: {
    title: 'Custom system',
    text: 'A system loaded from JSON text: your own bodies, joints and gravity, and optionally force elements (the "forces" list): springs and dampers between two points or in a hinge, forces, torques and motors with functions of time. The page cannot know what your system is meant to show, but the same rules hold as for the presets. Without force elements there is no friction and no drive, so the total energy is conserved by the physics; with them, E changes by the work W the loads and motors put in less the energy D the dampers take out.',
    look: 'The relative energy error tells how well each integrator conserves energy; for a system with force elements the energy chart shows the balance error |E - E0 - W + D| relative to max(|E0|, 1 J) instead, and an energy budget chart shows T, V, W and D in J. A momentum component is conserved only about an axis along which nothing outside exerts a torque: all three for free bodies without gravity, the vertical one (l3) for bodies hung by ball joints from fixed points on the vertical axis through the origin. The joint violation shows how well the links stay together.',
  },
};

/** The text of a model opened from MJCF (`model`: { name, notes }, the page's app.mjcfInfo):
 * what the conversion did, and why Tumble's run and MuJoCo's part after the first impact. */
function mjcfText({ name, notes }) {
  return {
    title: `MuJoCo model ${name}`,
    text: `A model written for MuJoCo (MJCF), compiled by MuJoCo's own compiler and converted into Tumble's bodies, joints and force elements; ${notes ? `the ${notes} note${notes > 1 ? 's' : ''} beside "open a MuJoCo model" say what became of each part without an exact counterpart` : 'everything in it has a Tumble counterpart'}. Several MuJoCo joints on one body became one Tumble joint with MuJoCo's own coordinates (a planar root, crossed hinges, a hip's three hinges, an ankle's two hinges on lines that pass apart); its springs, dampers, ranges and actuators act on those coordinates, and each actuator with a control range is a slider under Controls.`,
    look: 'The energy balance |E - E0 - W + D| stays at the Newton tolerance of the director method through every fall, impact and move of a slider: W counts the actuators\' work, D what the dampers, contacts and stops take. With MuJoCo beside (the menu "with MuJoCo") both runs start from the same state and follow each other to their integrators\' accuracy until the first impact or stop. After it they part, and neither is wrong: MuJoCo\'s contacts and joint limits are soft constraints (its solref and solimp) that let the bodies sink in a little and push back with a spring-damper of their own, Tumble\'s are contact laws and stops, forces that grow with the indentation, their restitution taken from MuJoCo\'s damping ratio and a stop\'s stiffness from MuJoCo\'s limit at rest under a load (a leg resting on its stop sinks about as far past its range in both runs). A fall or a gait is chaotic: the small difference at the first impact grows into a different pose within a second, so compare what each run keeps (its balance line, its joints\' violation), not the poses.',
  };
}

/** name -> { title, paper, text, look }: what each integrator is and what to look for. */
export const INTEGRATOR_TEXT = {
  director: {
    title: 'Energy-momentum director method',
    paper: NK,
    text: 'Each body is described by its centre and three perpendicular unit vectors (its "directors"), 12 numbers per body where 6 numbers would do. The step is written with mean values and differences so that the energy change over one step is exactly zero, and the joints are held exactly at the end of each step. The price: each step solves nonlinear equations by Newton iteration, so it is implicit and costs more per step, but it takes large steps.',
    look: 'The relative energy error stays flat near 1e-13, at round-off: it is set by the Newton tolerance (1e-12 by default, the "Newton tol" field under Solver settings), not by the step h, so halving h does not change it. The momentum components that the joints allow are kept just as well, and the Newton iterations chart shows about 2 iterations a step at h = 0.01 s (3 to 8 iterations at h = 0.1 s).',
  },
  rattle: {
    title: 'Lie-group RATTLE (Störmer-Verlet)',
    paper: TMZ,
    text: 'The "leapfrog" step (half a kick of momentum, a drift of the positions, another half kick) carried over to rotating bodies: the orientation is updated by turning it through an exact rotation (the exponential map), so it never stops being a rotation. It is symplectic: it does not conserve energy exactly, but it conserves a nearby energy, so its error cannot pile up. Joint forces are found so that the joints are closed at the end of every step.',
    look: 'The relative energy error oscillates but stays bounded, with no drift over long runs; its size scales with h² (halve h and the wiggles get about four times smaller). The angular momentum the system conserves is kept to round-off, and the joints stay at the tolerance.',
  },
  baumgarte: {
    title: 'Index-1 with Baumgarte stabilisation',
    paper: STAR,
    text: 'The textbook engineering method: the joints are enforced only on the accelerations, by solving a linear system for the joint forces, and the accelerations are then integrated step by step (here with Heun\'s method, an explicit second-order scheme). Errors in the positions are not corrected by that, so the joints slowly drift apart; Baumgarte\'s trick adds a spring (beta) and a damper (alpha) on the joint error to pull it back. Defaults alpha = beta = 10 1/s.',
    look: 'The energy is not conserved: the relative energy error grows over time. The joint violation stays bounded when alpha and beta hold it; set alpha = 0 1/s and beta = 0 1/s and it keeps growing. It is explicit, so it is cheap per step but has a stability limit: too large a step (like h = 0.1 s on nk-spherical) makes it blow up.',
  },
};

INTEGRATOR_TEXT.mujoco = {
  title: 'MuJoCo (its own integrator, beside Tumble)',
  paper: 'Todorov, Erez & Tassa 2012, "MuJoCo: A physics engine for model-based control" (IROS 2012); the official WebAssembly build, @mujoco/mujoco 3.14.0',
  text: 'The engine most people who simulate jointed rigid bodies use, stepping the same system: Tumble writes it as a MuJoCo model (bodies, inertias, hinges, balls and slides, springs) and MuJoCo runs it with the integrator chosen beside "with MuJoCo": RK4 (fourth order, explicit), Euler (semi-implicit), implicit or implicitfast (implicit in the velocities). MuJoCo works in joint coordinates, so the joints of a tree hold exactly; a joint that closes a loop becomes an equality constraint, which MuJoCo enforces softly, like a stiff spring. Its curves are Tumble\'s own measures (energy, momentum, joint violation) taken at MuJoCo\'s states.',
  look: 'With RK4 at a small step the energy error is small but drifts; with Euler it decays, as the semi-implicit step damps the motion. On a closed loop (the four-bar) the joint violation chart shows the soft loop closure opening by about 1e-4 m, where Tumble\'s methods hold it at round-off (director, RATTLE) or close to it. Drives and loads that vary in time have no MuJoCo counterpart and are left out (the page says which).',
};

// MuJoCo beside a contact preset: what its balance line is, said in every contact preset's text
const MUJOCO_BALANCE = 'MuJoCo\'s contacts (and stops) are soft constraints whose damping and friction take energy. MuJoCo reports their forces but not that energy, so the page counts it into the D of MuJoCo\'s run: each step\'s constraint impulse times the step\'s mean velocity (with RK4, its four stages\' forces weighted as RK4 weighs them; the page takes RK4\'s step stage by stage for that, as MuJoCo takes it, to the bit). Its line in the energy balance chart is then its integrator\'s error, as Tumble\'s lines are: on the bouncing ball at t = 4 s it is 3e-5 J with RK4 and 3e-7 J with implicitfast, where the contact took 9.8 J; on the incline at t = 2.5 s, 1e-3 J with RK4 and 2e-2 J with implicitfast, where friction took 47 J. In a system with loops or drives (equality constraints in MuJoCo) the losses are not counted, and MuJoCo\'s line, labelled "MuJoCo contact losses", is the energy its contacts have taken.';
const MUJOCO_CRADLE = ' Its cradle does not do the cradle, and that is MuJoCo\'s contact model, not its integrator: a contact is a constraint, not a force law, active as soon as two balls touch, and MuJoCo\'s solver gives each active contact the relative acceleration of its spring-damper, zero for balls that touch at rest. So when the first ball strikes, the solver pushes the four touching balls as if they were one rigid block (to the 1 % that its impedance ratio of 0.99 lets through): they share the impact and move on a little together, and no pulse runs to the far ball. Tumble\'s Hertz contacts are forces that grow with the indentation, zero at touching: the impact passes from ball to ball in about 2 ms each and ends in the far ball, which swings out.';
const MUJOCO_PIT = ' It runs far slower than Tumble here, and the readout says why ("each run\'s rate"): once the pile rests, MuJoCo\'s own step, its constraint solver working on some 800 contact rows, sets its pace: about 16 ms a step with implicitfast and 50 to 80 ms with RK4 in its wasm build (measured on a machine of two cores), where RATTLE takes 0.4 ms. Tumble\'s run does not wait for it: MuJoCo\'s falls behind, and its lines fill in as it gets there. MuJoCo\'s CG solver (the menu "MuJoCo\'s solver") is cheaper here: at rest (t = 1.1 s) its step took 8 to 14 ms against 41 to 45 ms with MuJoCo\'s default Newton solver with implicitfast, 31 to 48 ms against 163 to 175 ms with RK4 (MuJoCo\'s wasm build under Node, two runs on a loaded machine of two cores); it stops at its limit of 100 iterations there, so its contact forces are less exact and the pile settles a little differently.';
const MUJOCO_MORE = { 'newtons-cradle': MUJOCO_CRADLE, 'ball-pit': MUJOCO_PIT };
for (const name of ['bouncing-ball', 'newtons-cradle', 'ball-pit', 'stop-pendulum', 'incline', 'falling-chain', 'dominoes', 'billiards']) {
  SCENARIO_TEXT[name].mujoco = MUJOCO_BALANCE + (MUJOCO_MORE[name] ?? '');
}

const COMPARE_LOOK = 'Same scenario and the same start, one colour per integrator (its lines in the charts, its ghost in the view). Read the relative energy-error chart first: flat at round-off (director), bounded wiggles (RATTLE) or growth (Baumgarte). Then the constraint chart: which one keeps its joints closed.';

const PHONE_WIDTH = 600; // closed by default below this window width (px)

/** The preset name of a scenario text ('chain?links=8' -> 'chain'; JSON or unknown -> 'custom'). */
export function scenarioName(text) {
  const t = String(text ?? '').trim();
  if (t.startsWith('{')) return 'custom';
  const name = t.split('?')[0];
  return SCENARIO_TEXT[name] ? name : 'custom';
}

// one sentence about the chosen parameters of a chain (the texts above describe the defaults)
function chainSettings(text) {
  const q = new URLSearchParams(String(text).split('?')[1] ?? '');
  const links = q.get('links') ?? '8';
  const joint = q.get('joint') ?? 'revolute';
  const angle = Number(q.get('angle') ?? Math.PI / 4);
  const push = Number(q.get('push') ?? 0);
  const start = push ? `with the tip pushed at ${push} m/s` : 'from rest';
  return `This run: ${links} ${links === '1' ? 'box' : 'boxes'}, ${joint === 'spherical' ? 'ball (spherical)' : 'hinge (revolute)'} joints, started at ${+angle.toFixed(3)} rad from the vertical ${start}.`;
}

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function labelled(label, text, className) {
  const p = el('p', className);
  p.append(el('strong', '', label + ' '), text);
  return p;
}

/**
 * Fill `container` with a collapsible explanation of `scenario` (its canonical text, or a preset
 * name; a custom system opened from MJCF: `model`, { name, notes }) run by `integrators`
 * (names, the primary first). Keeps the panel's open / closed state
 * across calls; open by default on wide screens, closed on phones and in embeds.
 */
export function renderExplanation(container, { scenario, integrators = [], open: openFirst, model = null }) {
  if (!container) return;
  const name = scenarioName(scenario);
  const sc = name === 'custom' && model ? mjcfText(model) : SCENARIO_TEXT[name];
  const names = integrators.filter((n) => INTEGRATOR_TEXT[n]);
  const old = container.querySelector('details');
  const open = old ? old.open : openFirst ?? (window.innerWidth >= PHONE_WIDTH && !document.body.classList.contains('embed'));

  const details = el('details', 'explain-box');
  details.open = open;
  const summary = el('summary', 'explain-summary');
  summary.append(el('span', 'explain-kicker', 'What am I looking at?'), ' ', el('span', 'explain-name', sc.title));
  const with_ = names.map((n) => INTEGRATOR_TEXT[n].title.split(' (')[0]);
  if (with_.length) summary.append(el('span', 'explain-with', ` with ${with_.join(' vs ')}`));

  const body = el('div', 'explain-body');
  const left = el('div', 'explain-scenario');
  left.dataset.scenario = name;
  left.append(el('h2', 'explain-h', sc.title), el('p', 'explain-text', sc.text));
  if (name === 'chain') left.append(el('p', 'explain-text explain-settings', chainSettings(scenario)));
  left.append(labelled('Look for:', sc.look, 'explain-look'));
  if (sc.mujoco) left.append(labelled('With MuJoCo beside:', sc.mujoco, 'explain-look explain-mujoco'));

  const right = el('div', 'explain-methods');
  right.append(el('h2', 'explain-h', names.length > 1 ? `Comparing ${names.length} integrators` : 'Integrator'));
  if (names.length > 1) right.append(labelled('Compare:', COMPARE_LOOK, 'explain-compare'));
  names.forEach((n, i) => {
    const it = INTEGRATOR_TEXT[n];
    const box = el('div', 'explain-method');
    box.dataset.integrator = n;
    box.style.setProperty('--explain-color', INTEGRATOR_COLORS[n] ?? '#5b6475');
    const h = el('h3', 'explain-mh');
    h.append(el('span', 'explain-swatch'), it.title);
    if (names.length > 1) h.append(el('span', 'explain-role', i === 0 ? ' (main run)' : ' (ghost)'));
    h.firstChild.setAttribute('aria-hidden', 'true');
    box.append(h, el('p', 'explain-text', it.text), labelled('Look for:', it.look, 'explain-look'), el('p', 'explain-paper', 'Source: ' + it.paper));
    right.append(box);
  });

  body.append(left, right);
  details.append(summary, body);
  container.replaceChildren(details);
}
