#!/usr/bin/env bash
# hdfs-kerberos-test.sh — specbridge's HDFS client against a Kerberos-secured HDFS: Hadoop's MiniKdc and a
# MiniDFSCluster with hadoop.security.authentication=kerberos and SASL data transfer protection
# (scripts/minicluster/src/.../MiniHDFSKerberos.java; classpath from scripts/minicluster/pom-hdfs.xml,
# see scripts/hdfs-lib.sh). Then
#   go test -tags integration -p 1 -run ^TestKerberos ./yarnclient/hdfs/ ./cfa/ ./replay/
# with SPECBRIDGE_KRB_FS (hdfs://localhost:PORT), SPECBRIDGE_KRB_CONF (the client's HADOOP_CONF_DIR),
# SPECBRIDGE_KRB_KRB5CONF (the KDC's krb5.conf), SPECBRIDGE_KRB_KEYTAB and SPECBRIDGE_KRB_PRINCIPAL (the
# client's keytab, specbridge@EXAMPLE.COM) and SPECBRIDGE_KRB_CCACHE (a ticket cache kinit wrote from
# that keytab). Installs MIT kinit (Debian krb5-user) when it is missing. Stops the cluster and the KDC
# at exit. ~1 min on 2 cores. Heavy: run under flock /tmp/specbridge-heavy.lock.
set -euo pipefail
# shellcheck source=scripts/hdfs-lib.sh
. "$(dirname "$0")/hdfs-lib.sh"
if ! command -v kinit >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    sudo=""
    if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then sudo=sudo; fi
    $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq krb5-user >/dev/null
  else
    echo "hdfs-kerberos-test: kinit is not installed and apt-get is not available: install MIT Kerberos (krb5-user)" >&2
    exit 1
  fi
fi
hdfs_cluster MiniHDFSKerberos hdfs-krb
set -a
# shellcheck disable=SC1091 # written by MiniHDFSKerberos
. "$hdfs_state/env"
set +a
export SPECBRIDGE_KRB_CCACHE=$hdfs_state/ccache
KRB5_CONFIG=$SPECBRIDGE_KRB_KRB5CONF KRB5CCNAME=FILE:$SPECBRIDGE_KRB_CCACHE \
  kinit -k -t "$SPECBRIDGE_KRB_KEYTAB" "$SPECBRIDGE_KRB_PRINCIPAL"
# shellcheck disable=SC2086 # KRB_PKGS is a list of packages
hdfs_go_test hdfs-kerberos-test "^TestKerberos" ${KRB_PKGS:-./yarnclient/hdfs/ ./cfa/ ./replay/}
