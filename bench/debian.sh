# Sourced by the bench scripts that compare boc with Python libraries:
# python is Debian's interpreter, where Debian's python3-* packages install,
# and need_python_modules installs the packages when the modules are missing.
python=/usr/bin/python3

# need_python_modules "MOD, MOD" PACKAGE... imports the modules with $python
# and, if that fails, installs the Debian packages with apt-get (with sudo
# when not root).
need_python_modules() {
	modules=$1
	shift
	if ! "$python" -c "import $modules" 2>/dev/null; then
		echo "installing Debian's $* with apt-get" >&2
		sudo=""
		[ "$(id -u)" -eq 0 ] || sudo=sudo
		$sudo apt-get update
		$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"
	fi
}
