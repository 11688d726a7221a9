# ==== helm/prometheus-adapter.sh ====
# With monitoring on and prometheus_adapter_enabled: custom metrics from Prometheus
# for the horizontal pod autoscaler (rules from prometheus_adapter_configmap when
# given, else the chart's).
. /etc/sysconfig/heat-params
if [ "$MONITORING_ENABLED" = "True" ] && [ "$PROMETHEUS_ADAPTER_ENABLED" = "True" ]; then
    rules="default: true"
    [ -n "$PROMETHEUS_ADAPTER_CONFIGMAP" ] && rules="existing: $PROMETHEUS_ADAPTER_CONFIGMAP"
    add_chart prometheus-adapter monitoring https://prometheus-community.github.io/helm-charts \
        prometheus-adapter "$PROMETHEUS_ADAPTER_CHART_TAG" <<VALUES
prometheus: {url: http://prometheus-operator-prometheus.monitoring, port: 9090}
rules: {${rules}}
VALUES
fi
