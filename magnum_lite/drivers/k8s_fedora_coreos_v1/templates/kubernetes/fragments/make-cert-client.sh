# ==== make-cert-client.sh ====
# Client certificates of the node's own services (kubelet, kube-proxy, and on a
# master the controller manager and scheduler), signed by Magnum like make-cert.sh's.
. /etc/sysconfig/heat-params
cert_dir=/etc/kubernetes/certs
install -d -m 0700 "$cert_dir"
if [ "$TLS_DISABLED" != "True" ]; then
    trust_body=$(printf '{"auth":{"identity":{"methods":["password"],"password":{"user":{"id":"%s","password":"%s"}}},"scope":{"OS-TRUST:trust":{"id":"%s"}}}}' \
        "$TRUSTEE_USER_ID" "$TRUSTEE_PASSWORD" "$TRUST_ID")
    client_token=$(curl --silent --include -H 'Content-Type: application/json' -d "$trust_body" \
        "$AUTH_URL/auth/tokens" | awk -F': ' 'tolower($1) == "x-subject-token" {print $2}' | tr -d '\r')
    [ -s "$cert_dir/ca.crt" ] || curl --fail --silent -H "X-Auth-Token: $client_token" \
        -H "OpenStack-API-Version: container-infra latest" "$MAGNUM_URL/certificates/$CLUSTER_UUID" \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["pem"])' > "$cert_dir/ca.crt"

    # client_cert NAME SUBJECT
    client_cert() {
        openssl genrsa -out "$cert_dir/$1.key" 2048
        openssl req -new -key "$cert_dir/$1.key" -subj "$2" -addext "extendedKeyUsage=clientAuth" \
            -out "$cert_dir/$1.csr"
        python3 -c 'import json,sys; print(json.dumps({"cluster_uuid": sys.argv[1], "csr": open(sys.argv[2]).read()}))' \
            "$CLUSTER_UUID" "$cert_dir/$1.csr" \
            | curl --fail --silent -X POST -H "X-Auth-Token: $client_token" -H 'Content-Type: application/json' \
                -H "OpenStack-API-Version: container-infra latest" -d @- "$MAGNUM_URL/certificates" \
            | python3 -c 'import json,sys; print(json.load(sys.stdin)["pem"])' > "$cert_dir/$1.crt"
    }
    node_name=$(hostname -s)
    client_cert kubelet "/O=system:nodes/CN=system:node:${node_name}"
    client_cert proxy "/CN=system:kube-proxy"
    if [ "$NODEGROUP_ROLE" = "master" ]; then
        client_cert admin "/O=system:masters/CN=admin"
        client_cert controller "/CN=system:kube-controller-manager"
        client_cert scheduler "/CN=system:kube-scheduler"
    fi
    chmod 0600 "$cert_dir"/*.key
fi
