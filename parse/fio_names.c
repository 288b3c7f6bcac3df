/* fio_names.c: names of fio options (from fio's HOWTO) that storbench does
 * not implement, so a fio job file using one gets "not supported by
 * storbench" instead of "unknown option".  Names only, no fio code. */
#include <stddef.h>

#include "parse/options.h"

const char *const sb_fio_only_names[] = {
	"apptag", "apptag_mask", "bindname", "block",
	"bs_is_seq_rand", 
	"busy_poll",
	"cdb_len", "chunk_size", "clientname", "clustername", "cmd_type",
	"cmdprio_hint", "comm", "conf",
	"cont", "dataplacement", 
	"dir", "donorname", "dp_scheme", "end_syncfs", "fdp", "fdp_pli",
	"fdp_pli_select", "filetype", "force_async",
	"hdfsdirectory", "hipri_percentage", "hostname",
	"http_s3_sse_customer_algorithm", "http_s3_sse_customer_key",
	"inplace", "interface",
	"job_start_clock_id",
	"libaio_vectored", "libblkio_driver",
	"libblkio_force_enable_completion_eventfd", "libblkio_num_entries", "libblkio_path",
	"libblkio_pre_connect_props", "libblkio_pre_start_props", "libblkio_queue_size",
	"libblkio_vectored", "libblkio_wait_mode", "libblkio_write_zeroes_on_trim", "listen",
	"load", "log_issue_time", "log_window_value",
	"md_per_io_size",
	"merge_blktrace_file", "merge_blktrace_iters", "merge_blktrace_scalars", "mss", "namenode",
	"nfs_url", "no_completion_thread", "nodelay", "nowait", "num_range", "numruns",
	"object_class", "pi_act", "pi_chk", "pingpong", "plid_select", "plids", "pool", "port",
	"prep", "priohint", "proto", "protocol", "ramp_size",
	"random_sequence_stride", "rbd_encryption_format",
	"rbd_encryption_passphrase", "rbdname", "read_mode", "readfua",
	"recover_zbd_write_error", "rocm_io", "sg_write_mode", "skip_bad",
	"softrandommap", "spr_cs", "spr_num_regions", "spr_op", "sprandom", "ss_interval",
	"steadystate_check_interval", "stream_id", "thinkcycles",
	"touch_objects", "ttl", "uncached",
	"uri", "verb", "verify_async_cpus",
	"verify_bytchk", "verify_mode", "verify_pattern_interval", "verify_policy",
	"verify_write_sequence", "window_size", "write_mode",
	"write_zone_remainders", "writefua", "xnvme_admin", "xnvme_async", "xnvme_dev_nsid",
	"xnvme_dev_subnqn", "xnvme_iovec", "xnvme_mem", "xnvme_sync", 
	NULL,
};
