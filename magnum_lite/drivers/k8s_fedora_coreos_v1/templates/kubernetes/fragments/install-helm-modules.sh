# ==== install-helm-modules.sh ====
# Last fragment of kube_cluster_config: install or upgrade every chart the helm/
# fragments added, then apply the post-install manifest Magnum was configured with.
. /etc/sysconfig/heat-params
helm_dir=/srv/magnum/kubernetes/helm
while read -r release namespace repo chart version; do
    [ -n "$release" ] || continue
    echo "magnum: helm chart $chart $version as $release in $namespace"
    helm upgrade --install "$release" "$chart" --repo "$repo" --version "$version" \
        --namespace "$namespace" --create-namespace --values "$helm_dir/$release.values.yaml" \
        --wait --timeout 10m
done < "$helm_dir/charts.list"
if [ -n "$POST_INSTALL_MANIFEST_URL" ]; then
    kubectl apply -f "$POST_INSTALL_MANIFEST_URL"
fi
echo "magnum: cluster configuration done"
