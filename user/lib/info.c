// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>

#include "info.h"
#include "print.h"

int sp_print_version(const char *cli_version, const struct sp_info *info,
		     const char *module_status)
{
	if (sp_print_is_json()) {
		json_object *obj = json_object_new_object(), *mod = NULL;

		if (!obj)
			return -ENOMEM;
		sp_json_add(obj, "version", json_object_new_string(cli_version));
		if (info) {
			mod = json_object_new_object();
			if (mod) {
				sp_json_add(mod, "version", json_object_new_string(info->version));
				sp_json_add(mod, "kernel", info->kernel[0] ?
				    json_object_new_string(info->kernel) : NULL);
				sp_json_add(mod, "devices", info->has_devices ?
				    json_object_new_int64(info->devices) : NULL);
			}
		}
		sp_json_add(obj, "module", mod);
		if (!info)
			sp_json_add(obj, "module_status", sp_json_str_or_null(module_status));
		return sp_print_json(obj);
	}

	sp_print_text("sparkperf-ctl %s\n", cli_version);
	if (!info) {
		sp_print_text("module: %s\n", module_status ? module_status : "unknown");
		return 0;
	}
	sp_print_text("module: %s", info->version);
	if (info->kernel[0] && info->has_devices)
		sp_print_text(" (kernel %s, %u RDMA device%s)", info->kernel,
			      info->devices, info->devices == 1 ? "" : "s");
	else if (info->kernel[0])
		sp_print_text(" (kernel %s)", info->kernel);
	sp_print_text("\n");
	return 0;
}
