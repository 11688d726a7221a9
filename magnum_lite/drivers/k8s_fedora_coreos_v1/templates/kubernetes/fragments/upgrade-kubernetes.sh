# ==== upgrade-kubernetes.sh ====
# Run by upgrade_kubernetes_deployment on a stack UPDATE: the agent exports the
# config's inputs (kube_tag_input, ostree_remote_input, ...) as variables. A new
# kube_tag swaps the hyperkube image of every unit; an ostree remote and commit
# rebase the node's operating system and reboot it; new service-account keys
# are handled by the rotate fragment after this one.
. /etc/sysconfig/heat-params
new_tag="${kube_tag_input:-$KUBE_TAG}"
if [ "$new_tag" != "$KUBE_TAG" ]; then
    echo "magnum: kubernetes $KUBE_TAG -> $new_tag"
    sed -i "s|hyperkube:${KUBE_TAG}|hyperkube:${new_tag}|g" /etc/systemd/system/kube*.service
    sed -i "s|^KUBE_TAG=.*|KUBE_TAG=\"$new_tag\"|" /etc/sysconfig/heat-params
    if [ -n "${kube_image_digest_input:-}" ]; then
        sed -i "s|^KUBE_IMAGE_DIGEST=.*|KUBE_IMAGE_DIGEST=\"$kube_image_digest_input\"|" /etc/sysconfig/heat-params
    fi
    systemctl daemon-reload
    for unit in /etc/systemd/system/kube*.service; do
        systemctl restart "$(basename "$unit")"
    done
fi
if [ -n "${ostree_remote_input:-}" ] && [ -n "${ostree_commit_input:-}" ]; then
    current=$(rpm-ostree status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["deployments"][0]["checksum"])')
    if [ "$current" != "$ostree_commit_input" ]; then
        echo "magnum: rebasing onto $ostree_remote_input:$ostree_commit_input"
        rpm-ostree rebase "$ostree_remote_input:$ostree_commit_input" && systemctl reboot
    fi
fi
