"""Checks on the rendered case: its STLs, read back as meshes, against the layout.

Each check returns a list of problems (empty: it holds), so a test can assert on it and a
negative control can show it failing on a broken case. Meshes are moved to assembled
coordinates first (the top's STL is face down for printing).
"""

import case_model as cm
import case_scad
import numpy as np
import trimesh
from shapely.geometry import box as rect

MIN_WALL = 1.6
CLEARANCE = 0.3
CENTRE_TOL = 0.2
EPS_VOLUME = 1e-3  # mm^3: what counts as no overlap between meshes
# Stand on the base's floor: only their sides and tops keep clear.
RESTING = ("power", "piezo", "charger", "latch", "switch", "tray")
# A part and the print it lies on or in by design: not a clash.
CONTACTS = {("power", "tray"), ("tray", "tray")}


def _placed(path, back):
    mesh = trimesh.load(str(path), force="mesh")
    v = np.array([back(*p) for p in mesh.vertices])
    return trimesh.Trimesh(vertices=v, faces=mesh.faces, process=True)


def load_parts(c, folder):
    """{"base": mesh, "top": mesh, and "tray": mesh if the case has one} from a build
    folder's STLs, in assembled coordinates."""
    out = {"base": trimesh.load(str(folder / "base.stl"), force="mesh"),
           "top": _placed(folder / "top.stl", case_scad.top_print_transform(c))}
    if c.tray:
        out["tray"] = _placed(folder / "tray.stl", case_scad.tray_print_transform(c))
    if (folder / "cap.stl").exists():  # on the first button, under the plate
        out["cap"] = _placed(folder / "cap.stl", case_scad.cap_print_transform(c))
    return out


def watertight(name, mesh):
    """Closed, its faces wound one way with their normals outward: what a slicer needs."""
    if not mesh.is_watertight:
        return ["%s is not watertight" % name]
    if not mesh.is_winding_consistent or mesh.volume <= 0:
        return ["%s is not consistently oriented outward" % name]
    return []


def genus(name, mesh, holes):
    """A closed surface of one body has Euler number 2 - 2g; g counts its through-holes."""
    if mesh.body_count != 1:
        return ["%s is %d separate bodies" % (name, mesh.body_count)]
    g = (2 - mesh.euler_number) / 2
    return [] if g == holes else ["%s has genus %g, not its %d holes" % (name, g, holes)]


def _section(mesh, z):
    """The mesh cut at height z, as shapely polygons in the case's x, y."""
    path = mesh.section(plane_origin=[0, 0, z], plane_normal=[0, 0, 1])
    if path is None:
        return []
    planar, to_3d = path.to_2D(to_2D=np.eye(4))
    return list(planar.polygons_full)


def _openings(mesh, z):
    return [h for poly in _section(mesh, z) for h in poly.interiors]


def buttons_centred(c, top, layout):
    """Each fitted button has a round hole in the plate within CENTRE_TOL of its actuator."""
    z = (c.z_plate + c.z_top) / 2
    from shapely.geometry import Polygon

    holes = [Polygon(h) for h in _openings(top, z)]
    out = []
    for n in c.holed:
        bx, by = cm.button_centre(layout, c.build, n)
        near = [h for h in holes if h.distance(rect(bx, by, bx, by)) == 0]
        if not near:
            out.append("no hole over button %s at (%.2f, %.2f)" % (n, bx, by))
            continue
        p = near[0].centroid
        d = ((p.x - bx) ** 2 + (p.y - by) ** 2) ** 0.5
        if d > CENTRE_TOL:
            out.append("button %s's hole is %.2f mm off its centre" % (n, d))
        if near[0].area > 1.5 * np.pi * (layout.CASE["button_hole"] / 2) ** 2:
            out.append("button %s's hole is not a button hole (%.0f mm^2)" % (n, near[0].area))
    return out


def window_covers(c, top, layout):
    """Through the whole plate, one opening contains the panel's active area."""
    from shapely.geometry import Polygon

    ax0, ay0, ax1, ay1 = c.active
    area = rect(ax0, ay0, ax1, ay1)
    out = []
    for z in (c.z_plate + 0.05, (c.z_plate + c.z_top) / 2, c.z_top - 0.05):
        if not any(Polygon(h).contains(area) for h in _openings(top, z)):
            out.append("no opening covers the active area at z = %.2f" % z)
    return out


def walls(name, mesh, least=MIN_WALL):
    """Thickness at every face, measured inward along its normal to the next surface."""
    t = trimesh.proximity.thickness(mesh, mesh.triangles_center, exterior=False,
                                    normals=mesh.face_normals, method="ray")
    t = t[np.isfinite(t)]
    thin = float(t.min()) if len(t) else 0.0
    return [] if thin >= least - 1e-3 else ["%s is %.2f mm thin somewhere" % (name, thin)]


def _box_mesh(b):
    return trimesh.creation.box(extents=b.size(),
                                transform=trimesh.transformations.translation_matrix(b.centre()))


def _overlap(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):  # a sliver's centre of mass
        both = trimesh.boolean.intersection([a, b], engine="manifold")
        return 0.0 if len(both.faces) == 0 else float(abs(both.volume))


def closes(c, parts):
    """The top lands on the base without overlap, and each part inside keeps CLEARANCE."""
    base, top = parts["base"], parts["top"]
    out = []
    if abs(base.bounds[1][2] - c.z_base_top) > 1e-3 or abs(top.bounds[0][2] - c.z_split) > 1e-3:
        out.append("the top does not meet the base at z = %.2f (base %.2f, top %.2f)"
                   % (c.z_split, base.bounds[1][2], top.bounds[0][2]))
    for a, b in (("base", "top"), ("base", "tray"), ("top", "tray"), ("top", "cap")):
        if a in parts and b in parts:
            v = _overlap(parts[a], parts[b])
            if v > EPS_VOLUME:
                out.append("the %s and the %s overlap by %.2f mm^3" % (a, b, v))
    lo = np.array([c.x0, c.y0, 0.0])
    hi = np.array([c.x1, c.y1, c.z_top])
    for b in c.parts:
        if b.name.startswith("button") or b.name == "piezo" and not c.sound:
            continue
        if b.name != "switch knob" and (np.any(np.array(b.lo) < lo)
                                        or np.any(np.array(b.hi) > hi)):
            out.append("%s sticks out of the case" % b.name)
        grown = b.grown(CLEARANCE)
        if b.name in RESTING:
            grown.lo = grown.lo[:2] + (b.lo[2],)
        grown = _box_mesh(grown)
        for name, mesh in parts.items():
            if (b.name, name) in CONTACTS:
                continue
            v = _overlap(grown, mesh)
            if v > EPS_VOLUME:
                out.append("%s is within %.1f mm of the %s (%.2f mm^3)"
                           % (b.name, CLEARANCE, name, v))
    return out


def lips_seat(c, parts, least=0.2):
    """Halfway up the corner lips, the base is the lips alone: each stands in a socket of
    the top, at least `least` from it all round (the print's fit), none missing."""
    if not c.lips:
        return []
    from shapely.ops import unary_union

    z = c.z_split + c.lip_h / 2
    lips, top = _section(parts["base"], z), unary_union(_section(parts["top"], z))
    if len(lips) != len(c.lips):
        return ["the base has %d corner lips, not %d" % (len(lips), len(c.lips))]
    gap = min(top.distance(lip) for lip in lips)
    return [] if gap >= least - 1e-3 else [
        "a corner lip is %.2f mm from its socket, needs %.2f" % (gap, least)]


def check_all(c, layout, parts):
    """Every check's problems, for one build."""
    out = []
    for name, mesh in parts.items():
        out += watertight(name, mesh) + genus(name, mesh, c.holes[name]) + walls(name, mesh)
    out += buttons_centred(c, parts["top"], layout) + window_covers(c, parts["top"], layout)
    return out + closes(c, parts) + lips_seat(c, parts)
