# ==== make-cert.sh ====
# The master's certificates: a key and CSR per identity, each signed by the
# cluster's CA through Magnum's certificates API (POST /v1/certificates, as the
# trustee), so the CA's private key never leaves Magnum.
. /etc/sysconfig/heat-params
cert_dir=/etc/kubernetes/certs
install -d -m 0700 "$cert_dir"
if [ "$TLS_DISABLED" = "True" ]; then
    echo "magnum: TLS disabled, no certificates"
else
    token_for_trustee() {
        local body
        body=$(printf '{"auth":{"identity":{"methods":["password"],"password":{"user":{"id":"%s","password":"%s"}}},"scope":{"OS-TRUST:trust":{"id":"%s"}}}}' \
            "$TRUSTEE_USER_ID" "$TRUSTEE_PASSWORD" "$TRUST_ID")
        curl --silent --include -H 'Content-Type: application/json' -d "$body" "$AUTH_URL/auth/tokens" \
            | awk -F': ' 'tolower($1) == "x-subject-token" {print $2}' | tr -d '\r'
    }
    magnum_token=$(token_for_trustee)

    curl --fail --silent -H "X-Auth-Token: $magnum_token" -H "OpenStack-API-Version: container-infra latest" \
        "$MAGNUM_URL/certificates/$CLUSTER_UUID" | python3 -c 'import json,sys; print(json.load(sys.stdin)["pem"])' \
        > "$cert_dir/ca.crt"

    # sign_csr NAME: send NAME.csr, keep NAME.crt
    sign_csr() {
        python3 -c 'import json,sys; print(json.dumps({"cluster_uuid": sys.argv[1], "csr": open(sys.argv[2]).read()}))' \
            "$CLUSTER_UUID" "$cert_dir/$1.csr" > "$cert_dir/$1.req.json"
        curl --fail --silent -X POST -H "X-Auth-Token: $magnum_token" -H 'Content-Type: application/json' \
            -H "OpenStack-API-Version: container-infra latest" \
            -d @"$cert_dir/$1.req.json" "$MAGNUM_URL/certificates" \
            | python3 -c 'import json,sys; print(json.load(sys.stdin)["pem"])' > "$cert_dir/$1.crt"
        rm -f "$cert_dir/$1.req.json"
    }

    # the API server answers on every name a client may use
    sans="IP:${KUBE_NODE_IP},IP:127.0.0.1,DNS:kubernetes,DNS:kubernetes.default"
    sans="$sans,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.${DNS_CLUSTER_DOMAIN}"
    [ -n "$KUBE_API_PRIVATE_ADDRESS" ] && sans="$sans,IP:$KUBE_API_PRIVATE_ADDRESS"
    [ -n "$KUBE_API_PUBLIC_ADDRESS" ] && sans="$sans,IP:$KUBE_API_PUBLIC_ADDRESS"
    [ -n "$KUBE_NODE_PUBLIC_IP" ] && sans="$sans,IP:$KUBE_NODE_PUBLIC_IP"
    service_ip=$(python3 -c "import ipaddress,sys; print(ipaddress.ip_network(sys.argv[1])[1])" "$PORTAL_NETWORK_CIDR")
    sans="$sans,IP:$service_ip"

    openssl genrsa -out "$cert_dir/server.key" 4096
    openssl req -new -key "$cert_dir/server.key" -subj "/CN=kubernetes" \
        -addext "subjectAltName=$sans" -addext "extendedKeyUsage=serverAuth,clientAuth" \
        -out "$cert_dir/server.csr"
    sign_csr server

    # the service accounts' signing pair came in heat-params, newlines as \n
    printf '%b\n' "$KUBE_SERVICE_ACCOUNT_KEY" > "$cert_dir/service_account.key"
    printf '%b\n' "$KUBE_SERVICE_ACCOUNT_PRIVATE_KEY" > "$cert_dir/service_account_private.key"
    chmod 0600 "$cert_dir"/*.key
    chown -R kube:kube "$cert_dir" 2>/dev/null || true
fi
