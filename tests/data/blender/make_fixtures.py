# Writes the Blender import fixtures: a small level exported by Blender itself as level.glb,
# level.fbx and level.obj (+ level.mtl), and level.expected.json (Blender's own world
# transforms of each object, turned to the scene's +Y up frame: (x, y, z) -> (x, z, -y)).
# Then the same level re-exported after an edit in Blender (CrateA moved, Wall-col deleted) as
# level_v2.glb, level_v2.fbx, level_v2.obj (+ level_v2.mtl) and level_v2.expected.json: what a
# reload of an imported file meets.
#
# Run once, from the repository root (Debian 12: apt-get install blender python3-numpy):
#   env -i PATH=/usr/bin:/bin HOME=$HOME blender -b --factory-startup \
#       --python tests/data/blender/make_fixtures.py -- tests/data/blender
# The test suite reads the committed files and never needs Blender.
#
# The level (Blender frame: +Z up, metres):
#   Block      2 m cube on the ground (Z 0..2) at the origin; slots "Brick" (sides, bottom), "Grass" (top)
#   Suzanne    Blender's monkey at (4, 0, 1), no material slot
#   Pivot      an empty at (-4, 0, 0) turned 45 deg about Z
#   Child      a 1 m cube, slot "Stone", parented to Pivot at local (2, 0, 0.5)
#   CrateA/B   one mesh "Crate" (1 m cube, slot "Wood") used by two objects (a linked duplicate)
#   Wall-col   a 4 x 0.5 x 2 m box at (0, -5, 1), slot "Stone": the "-col" suffix convention
# Version 2: CrateA moved to (0, 7, 0.5) and turned 90 deg about Z; Wall-col (and its mesh) deleted.
import json
import math
import os
import sys

import bmesh
import bpy
from mathutils import Matrix, Vector

out_dir = sys.argv[sys.argv.index("--") + 1] if "--" in sys.argv else "."
os.makedirs(out_dir, exist_ok=True)

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene


def material(name, rgb):
    m = bpy.data.materials.new(name)
    m.diffuse_color = (*rgb, 1.0)
    m.use_nodes = True
    m.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = (*rgb, 1.0)
    return m


def box_mesh(name, size):
    """A box centred on its origin, size (x, y, z) in metres."""
    me = bpy.data.meshes.new(name)
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=1.0)
    bmesh.ops.scale(bm, vec=Vector(size), verts=bm.verts)
    bm.to_mesh(me)
    bm.free()
    return me


def obj(name, data, location, rotation_z_deg=0.0, parent=None):
    o = bpy.data.objects.new(name, data)
    scene.collection.objects.link(o)
    if parent is not None:
        o.parent = parent
        o.matrix_parent_inverse = Matrix.Identity(4)
    o.location = location
    o.rotation_euler = (0.0, 0.0, math.radians(rotation_z_deg))
    return o


brick = material("Brick", (0.6, 0.2, 0.1))
grass = material("Grass", (0.1, 0.6, 0.1))
stone = material("Stone", (0.5, 0.5, 0.5))
wood = material("Wood", (0.5, 0.35, 0.2))

block_mesh = box_mesh("Block", (2.0, 2.0, 2.0))
block_mesh.materials.append(brick)
block_mesh.materials.append(grass)
for poly in block_mesh.polygons:
    poly.material_index = 1 if poly.normal.z > 0.5 else 0
obj("Block", block_mesh, (0.0, 0.0, 1.0))

bpy.ops.mesh.primitive_monkey_add(size=2.0, location=(4.0, 0.0, 1.0))
suzanne = bpy.context.active_object
suzanne.name = "Suzanne"
suzanne.data.name = "Suzanne"

pivot = obj("Pivot", None, (-4.0, 0.0, 0.0), rotation_z_deg=45.0)
child_mesh = box_mesh("Child", (1.0, 1.0, 1.0))
child_mesh.materials.append(stone)
obj("Child", child_mesh, (2.0, 0.0, 0.5), parent=pivot)

crate_mesh = box_mesh("Crate", (1.0, 1.0, 1.0))
crate_mesh.materials.append(wood)
obj("CrateA", crate_mesh, (0.0, 5.0, 0.5))
obj("CrateB", crate_mesh, (3.0, 5.0, 0.5), rotation_z_deg=30.0)

wall_mesh = box_mesh("Wall", (4.0, 0.5, 2.0))
wall_mesh.materials.append(stone)
obj("Wall-col", wall_mesh, (0.0, -5.0, 1.0))

def y_up(v):
    return [v.x, v.z, -v.y]


def export(stem):
    """Writes <stem>.expected.json, .glb, .fbx and .obj (+ .mtl) of the scene as it is."""
    bpy.context.view_layer.update()
    expected = []
    for o in sorted(scene.objects, key=lambda o: o.name):
        loc, rot, scale = o.matrix_world.decompose()
        # The turn to +Y up is a -90 deg rotation about X; conjugating a rotation by it keeps the
        # angle and turns the axis.
        axis, angle = rot.to_axis_angle()
        ax = y_up(axis)
        half = 0.5 * angle
        expected.append({
            "name": o.name,
            "parent": o.parent.name if o.parent else None,
            "type": o.type,
            "mesh": o.data.name if o.type == "MESH" else None,
            "position": [round(c, 6) for c in y_up(loc)],
            "rotation": [round(c, 6) for c in [ax[0] * math.sin(half), ax[1] * math.sin(half),
                                                 ax[2] * math.sin(half), math.cos(half)]],
            "slots": [m.name for m in o.data.materials] if o.type == "MESH" else [],
        })
    with open(os.path.join(out_dir, stem + ".expected.json"), "w") as f:
        json.dump({"objects": expected}, f, indent=1)
        f.write("\n")

    bpy.ops.export_scene.gltf(filepath=os.path.join(out_dir, stem + ".glb"), export_format="GLB",
                              export_yup=True, export_apply=False, export_cameras=False,
                              export_lights=False, export_animations=False)
    bpy.ops.export_scene.fbx(filepath=os.path.join(out_dir, stem + ".fbx"), object_types={"EMPTY", "MESH"},
                             axis_forward="-Z", axis_up="Y", apply_unit_scale=True, bake_anim=False,
                             use_mesh_modifiers=False, path_mode="STRIP")
    bpy.ops.wm.obj_export(filepath=os.path.join(out_dir, stem + ".obj"), export_materials=True,
                          export_uv=False, export_normals=False, forward_axis="NEGATIVE_Z",
                          up_axis="Y", path_mode="STRIP")


export("level")

crate_a = bpy.data.objects["CrateA"]
crate_a.location = (0.0, 7.0, 0.5)
crate_a.rotation_euler = (0.0, 0.0, math.radians(90.0))
bpy.data.objects.remove(bpy.data.objects["Wall-col"])
bpy.data.meshes.remove(wall_mesh)
export("level_v2")
print("fixtures written to", out_dir)
