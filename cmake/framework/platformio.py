# SPDX-License-Identifier: MIT
# PlatformIO extraScript of library.json: picks the framework-hosted port for
# the platform being built (espressif8266: port/framework_esp8266,
# espressif32: port/framework_esp32). It adds the port's sources to the
# manifest's srcFilter and its folder (kairos/port_config.hpp,
# kairos_port_irq.hpp) to the include path of the library, the project and
# the other libraries. PlatformIO runs it with the library's folder as the
# working directory. An unsupported platform stops the build with a message.
import json
import os

PORTS = {"espressif8266": "framework_esp8266", "espressif32": "framework_esp32"}


def port_for(platform):
    """port_for(platform) is the port folder name for a PlatformIO platform."""
    if platform not in PORTS:
        raise ValueError("kairos: platform %r is not supported (only %s)"
                         % (platform, ", ".join(sorted(PORTS))))
    return PORTS[platform]


def configure(env, envs, library_dir):
    """configure(env, envs, library_dir) sets the library's SRC_FILTER on env
    and adds the port's include folder to every environment in envs."""
    with open(os.path.join(library_dir, "library.json")) as f:
        manifest_filter = json.load(f)["build"]["srcFilter"]
    port = port_for(env.subst("$PIOPLATFORM"))
    env.Replace(SRC_FILTER=list(manifest_filter) + ["+<port/%s/>" % port])
    include = os.path.realpath(os.path.join(library_dir, "port", port))
    for e in envs:
        e.Append(CPPPATH=[include])


if "Import" in globals():  # run by PlatformIO (SCons), not imported by a test
    Import("env")  # noqa: F821 (SCons builtin)
    envs = [env, DefaultEnvironment()]  # noqa: F821
    try:
        Import("projenv")  # noqa: F821
        envs.append(projenv)  # noqa: F821
    except Exception:  # projenv exists only for post scripts
        pass
    configure(env, envs, os.getcwd())
