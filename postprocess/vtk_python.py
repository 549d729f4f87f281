"""VTK's Python modules for the scripts that read .vtu/.pvtu files.

Two Debian packages provide the module `vtkmodules` to /usr/bin/python3:
python3-vtk9 (VTK 9.1) and python3-paraview (ParaView 5.11's VTK 9.2). They
conflict because both install /usr/lib/python3/dist-packages/vtkmodules, so
whichever is installed, `import vtkmodules` is the same line; the scripts use
only classes both have (the XML readers, numpy_support, vtkRenderWindow).
ParaView installed otherwise (a Kitware binary) keeps its vtkmodules inside
its own tree: run the script with that ParaView's pvpython then.
require_vtk() turns the bare ImportError into that advice.
"""
import sys

ADVICE = ("install Debian's python3-vtk9 or python3-paraview (either gives "
          "/usr/bin/python3 the module vtkmodules; scripts/ensure_dependencies.sh "
          "installs one), or run this script with ParaView's pvpython")


def require_vtk(program):
    """Exit with status 1 and the advice when vtkmodules cannot be imported."""
    try:
        import vtkmodules.vtkIOXML  # noqa: F401
        import vtkmodules.util.numpy_support  # noqa: F401
    except ImportError as e:
        print(f"{program}: error: VTK's Python modules cannot be imported ({e}): {ADVICE}",
              file=sys.stderr)
        sys.exit(1)
