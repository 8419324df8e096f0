#!/bin/bash
# Makes what mutual TLS between a controller and its data planes needs, with openssl:
# a lab CA, a certificate for each data plane naming the hosts it is dialled by, and one
# for the controller. Keys stay in DIR (mode 0600); copy each host its own.
#
#   scripts/engine-certs.sh DIR ENGINE_NAME [ENGINE_NAME...]
#     ENGINE_NAME: how the controller dials it: a DNS name or an IP address; give several
#     at once (comma-separated, "dp1,10.0.0.2") when it is dialled by more than one.
#
# DIR/ca.pem, DIR/ca.key                              the CA (keep its key off the lab hosts)
# DIR/engine-N.pem, DIR/engine-N.key                  data plane N: --tls-ca ca.pem --tls-cert ... --tls-key ...
# DIR/controller.pem, DIR/controller.key              linerate: --engine-ca ca.pem --engine-cert ... --engine-key ...
# An existing CA in DIR is reused, so engines can be added later.
set -euo pipefail
if [[ $# -lt 2 ]]; then
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
dir=$1
shift
mkdir -p "$dir"
umask 077
days=825
if [[ ! -f $dir/ca.pem ]]; then
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days "$days" -subj "/CN=linerate lab CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -keyout "$dir/ca.key" -out "$dir/ca.pem" 2> /dev/null
fi

# sign NAME CN SAN USAGE: a key and a certificate the CA signed.
sign() {
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$2" \
    -keyout "$dir/$1.key" -out "$dir/$1.csr" 2> /dev/null
  printf 'basicConstraints=CA:FALSE\nextendedKeyUsage=%s\n%s' "$4" "${3:+subjectAltName=$3}" > "$dir/$1.ext"
  openssl x509 -req -in "$dir/$1.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days "$days" \
    -extfile "$dir/$1.ext" -out "$dir/$1.pem" 2> /dev/null
  rm -f "$dir/$1.csr" "$dir/$1.ext"
}

n=0
for names in "$@"; do
  n=$((n + 1))
  san=""
  IFS=, read -ra each <<< "$names"
  for name in "${each[@]}"; do
    if [[ $name =~ ^[0-9.]+$ || $name == *:* ]]; then san+="${san:+,}IP:$name"; else san+="${san:+,}DNS:$name"; fi
  done
  sign "engine-$n" "${each[0]}" "$san" serverAuth
  echo "engine-$n: $dir/engine-$n.pem for $san"
done
sign controller "linerate controller" "" clientAuth
echo "controller: $dir/controller.pem; CA: $dir/ca.pem"
