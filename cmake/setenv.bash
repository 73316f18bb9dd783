# openacl: CANN's <toolkit>/bin/setenv.bash, which CANN's example run scripts source first.
# It sets up the same environment as <prefix>/set_env.sh.
# shellcheck disable=SC1091
. "$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)/set_env.sh"
