# ==== enable-ingress-controller.sh ====
# The ingress_controller label picks the controller. kubecluster.yaml inlines the
# two controllers' fragments at the markers below; nginx comes as a Helm chart
# (helm/ingress-nginx.sh).
. /etc/sysconfig/heat-params
case "$INGRESS_CONTROLLER" in
    traefik)
__ENABLE_INGRESS_TRAEFIK__
        ;;
    octavia)
__ENABLE_INGRESS_OCTAVIA__
        ;;
    nginx|"")
        : # helm/ingress-nginx.sh, or no ingress controller
        ;;
    *)
        echo "magnum: unknown ingress controller '$INGRESS_CONTROLLER'"
        ;;
esac
