/* inputs.c: the set of a run's input files, by device and inode
 * (os/inputs.h).  A small array under a mutex: inputs are few (job files,
 * includes, traces) and are looked up only when an output is opened. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "os/inputs.h"

struct input {
	dev_t dev;
	ino_t ino;
	char *path;
	char *what;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct input *inputs;
static size_t ninputs, cap;

static int add(const struct stat *st, const char *path, const char *what)
{
	int e = 0;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < ninputs; i++)
		if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino)
			goto out;
	if (ninputs == cap) {
		size_t ncap = cap ? cap * 2 : 16;
		struct input *n = realloc(inputs, ncap * sizeof(*n));
		if (!n) {
			e = -ENOMEM;
			goto out;
		}
		inputs = n;
		cap = ncap;
	}
	struct input *in = &inputs[ninputs];
	in->dev = st->st_dev;
	in->ino = st->st_ino;
	in->path = strdup(path ? path : "?");
	in->what = strdup(what ? what : "input");
	if (!in->path || !in->what) {
		free(in->path);
		free(in->what);
		e = -ENOMEM;
		goto out;
	}
	ninputs++;
out:
	pthread_mutex_unlock(&lock);
	return e;
}

int sb_inputs_add_fd(int fd, const char *path, const char *what)
{
	struct stat st;
	if (fstat(fd, &st))
		return -errno;
	return add(&st, path, what);
}

int sb_inputs_add_path(const char *path, const char *what)
{
	struct stat st;
	if (!path || !*path)
		return -ENOENT;
	if (stat(path, &st))
		return -errno;
	return add(&st, path, what);
}

bool sb_inputs_find(dev_t dev, ino_t ino, char *path, size_t plen, char *what, size_t wlen)
{
	bool found = false;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < ninputs && !found; i++) {
		if (inputs[i].dev != dev || inputs[i].ino != ino)
			continue;
		found = true;
		if (path && plen)
			snprintf(path, plen, "%s", inputs[i].path);
		if (what && wlen)
			snprintf(what, wlen, "%s", inputs[i].what);
	}
	pthread_mutex_unlock(&lock);
	return found;
}

void sb_inputs_clear(void)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < ninputs; i++) {
		free(inputs[i].path);
		free(inputs[i].what);
	}
	free(inputs);
	inputs = NULL;
	ninputs = cap = 0;
	pthread_mutex_unlock(&lock);
}
