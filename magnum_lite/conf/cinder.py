"""[cinder]: the boot volume a node gets when neither the cluster nor its template sets
label boot_volume_size (0: nodes boot from the flavor's root disk)."""

from oslo_config import cfg

opts = [
    cfg.IntOpt(
        "default_boot_volume_size",
        default=0,
        min=0,
        help="Size (GB) of a node's boot volume when label boot_volume_size is not set; "
        "0 boots from the flavor's disk, which must then be larger than 0.",
    ),
]


def register_opts(conf):
    conf.register_opts(opts, group="cinder")


def list_opts():
    return [("cinder", opts)]
