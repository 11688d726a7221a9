# ==== enable-cert-api-manager.sh ====
# With the cert_manager_api label the controller manager signs CSRs itself: it
# needs the cluster CA's private key, which Magnum sends only then (ca_key).
. /etc/sysconfig/heat-params
if [ "$CERT_MANAGER_API" = "True" ]; then
    ca_key_file=/etc/kubernetes/certs/ca.key
    printf '%b\n' "__CA_KEY__" > "$ca_key_file"
    chmod 0600 "$ca_key_file"
    echo "magnum: the controller manager will sign certificate requests"
fi
