/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which sources run: -r instances, -x/-n in order, -O by source or instance name, SIGHUP re-apply. */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tests/lib/test_main.h"

#include "rngd/source_set.h"
#include "tests/lib/test_argv.h"

struct set {
	struct rngd_slot *slots;
	size_t n;
	char err[RNGD_ERR_MAX];
};

/* Build the source set of "rngd" and the NULL-terminated words after @s. */
static int build(struct set *s, ...)
{
	struct rngd_options o;
	char *argv[TEST_ARGV_MAX + 2];
	va_list ap;
	int argc, r;

	va_start(ap, s);
	argc = test_argv_from(argv, "rngd", ap);
	va_end(ap);
	rngd_options_init(&o);
	assert_int_equal(rngd_options_parse_argv(&o, argc, argv, s->err), 0);
	s->slots = NULL;
	s->n = 0;
	r = rngd_source_set_build(&o, &s->slots, &s->n, s->err);
	rngd_options_free(&o);
	return r;
}

static struct rngd_slot *find(struct set *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++) {
		struct rngd_slot *slot = rngd_slot_at(s->slots, i);

		if (strcmp(rngd_slot_source(slot)->name, name) == 0)
			return slot;
	}
	return NULL;
}

/* The source and the settings of the slot named @name, which exists. */
static const struct rng_source *source_of(struct set *s, const char *name)
{
	struct rngd_slot *slot = find(s, name);

	assert_non_null(slot);
	return rngd_slot_source(slot);
}

static const struct rngd_slot_settings *settings_of(struct set *s, const char *name)
{
	struct rngd_slot *slot = find(s, name);

	assert_non_null(slot);
	return rngd_slot_settings(slot);
}

static void test_every_built_source_enabled_at_its_default_credit(void **state)
{
	struct set s;
	size_t n_reg = 0;

	(void)state;
	assert_int_equal(build(&s, NULL), 0);
	for (const struct rng_source_ops *const *p = rng_source_registry; *p; p++)
		n_reg++;
	assert_int_equal(s.n, n_reg);
	for (size_t i = 0; i < s.n; i++) {
		struct rngd_slot *slot = rngd_slot_at(s.slots, i);
		const struct rng_source *src = rngd_slot_source(slot);

		assert_true(rngd_slot_settings(slot)->enabled);
		assert_false(rngd_slot_settings(slot)->explicit);
		assert_true(src->entropy_per_bit == src->ops->default_entropy_per_bit);
	}
	assert_non_null(find(&s, "hwrng"));
	assert_non_null(find(&s, "file"));
	rngd_slots_free(s.slots, s.n);
}

static void test_file_instances(void **state)
{
	struct set s;

	(void)state;
	assert_int_equal(build(&s, "-r", "/a", "-r", "/b", "-r", "/c", NULL), 0);
	assert_non_null(find(&s, "file"));
	assert_non_null(find(&s, "file.2"));
	assert_non_null(find(&s, "file.3"));
	assert_null(find(&s, "file.4"));
	assert_true(settings_of(&s, "file.3")->explicit);
	assert_true(settings_of(&s, "file.3")->enabled);
	rngd_slots_free(s.slots, s.n);
}

static void test_exclude_include_order(void **state)
{
	/* Whether the slot @name is enabled after the command line @words
	 * (up to the first NULL), and the rule that says so. */
	static const struct {
		const char *words[4];
		const char *name;
		bool enabled;
		const char *rule;
	} cases[] = {
		{ { "-n", "hwrng", "-x", "hwrng" }, "hwrng", false, "the later of -n and -x wins" },
		{ { "-x", "all", "-r", "/a" }, "file", true, "-r after -x all still enables its file instance" },
		{ { "-x", "all", "-r", "/a" }, "hwrng", false, "-r after -x all enables nothing else" },
	};
	struct set s;

	(void)state;
	assert_int_equal(build(&s, "-x", "all", "-n", "hwrng", NULL), 0);
	for (size_t i = 0; i < s.n; i++) {
		struct rngd_slot *slot = rngd_slot_at(s.slots, i);

		assert_int_equal(rngd_slot_enabled(slot), strcmp(rngd_slot_source(slot)->name, "hwrng") == 0);
	}
	assert_true(settings_of(&s, "hwrng")->explicit);
	rngd_slots_free(s.slots, s.n);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *const *w = cases[i].words;

		assert_int_equal(build(&s, w[0], w[1], w[2], w[3], NULL), 0);
		if (settings_of(&s, cases[i].name)->enabled != cases[i].enabled)
			fail_msg("%s: %s is %s", cases[i].rule, cases[i].name,
				 cases[i].enabled ? "disabled" : "enabled");
		rngd_slots_free(s.slots, s.n);
	}
}

static void test_source_options_reach_their_named_instance(void **state)
{
	struct set s;

	(void)state;
	assert_int_equal(build(&s, "-r", "/a", "-r", "/b", "-O", "file.2:priority:7", "-O",
			       "hwrng:entropy_per_bit:0.9", NULL), 0);
	assert_int_equal(source_of(&s, "file.2")->priority, 7);
	assert_int_equal(source_of(&s, "file")->priority, rng_source_file_ops.default_priority);
	assert_true(source_of(&s, "hwrng")->entropy_per_bit == 0.9);
	rngd_slots_free(s.slots, s.n);

	assert_int_equal(build(&s, "-O", "hwrng:device:/dev/urandom", NULL), 0);
	assert_true(settings_of(&s, "hwrng")->explicit);
	rngd_slots_free(s.slots, s.n);
}

static void test_bad_selection_or_key_refused_with_its_reason(void **state)
{
	static const struct {
		const char *opt, *val, *msg;
	} cases[] = {
		{ "-O", "nosuch:k:v", "no source named 'nosuch'" },
		{ "-x", "nosuch", "no source named 'nosuch'" },
		{ "-n", "file.9", "no source named 'file.9'" },
		{ "-O", "hwrng:colour:red", "unknown option 'colour' (known: device)" },
		{ "-O", "hwrng:device:relative", "device 'relative' is not an absolute path" },
		{ "-O", "hwrng:entropy_per_bit:2", "needs a number 0.0..1.0" },
		{ "-O", "hwrng:entropy_per_bit:1e-5", "1e-5 is less than one bit a 20000-bit block: 0 for none, or at least 5e-05" },
		{ "-O", "hwrng:entropy_per_bit:1e-300", "is less than one bit a 20000-bit block" },
		{ "-O", "hwrng:entropy_per_bit:-0.5", "needs a number 0.0..1.0" },
		{ "-O", "hwrng:entropy_per_bit:nan", "needs a number 0.0..1.0" },
		{ "-O", "hwrng:priority:1001", "needs an integer -1000..1000" },
		{ "-O", "hwrng:priority:x", "needs an integer" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct set s;

		assert_int_equal(build(&s, cases[i].opt, cases[i].val, NULL), -EINVAL);
		if (!strstr(s.err, cases[i].msg))
			fail_msg("%s %s: got '%s', want '%s'", cases[i].opt, cases[i].val, s.err, cases[i].msg);
		assert_null(s.slots);
	}
}

static void test_reapply_resets_dropped_keys_and_applies_new_ones(void **state)
{
	struct rngd_options o;
	struct set s;
	char *argv[] = { "rngd", "-O", "file:entropy_per_bit:0.25", NULL };

	(void)state;
	assert_int_equal(build(&s, "-O", "hwrng:priority:50", "-r", "/a", NULL), 0);
	assert_int_equal(source_of(&s, "hwrng")->priority, 50);
	rngd_options_init(&o);
	assert_int_equal(rngd_options_parse_argv(&o, 3, argv, s.err), 0);
	assert_int_equal(rngd_source_set_reapply(&o, s.slots, s.n, s.err), 0);
	/* A key gone from the configuration returns to its default. */
	assert_int_equal(source_of(&s, "hwrng")->priority, rng_source_hwrng_ops.default_priority);
	assert_true(source_of(&s, "file")->entropy_per_bit == 0.25);
	rngd_options_free(&o);
	rngd_slots_free(s.slots, s.n);
}

/* A reload that fails at a later line changes nothing at all. */
static void test_failed_reapply_changes_nothing(void **state)
{
	struct rngd_options o;
	struct set s;
	char *argv[] = { "rngd", "-O", "hwrng:entropy_per_bit:0.3", "-O", "file:priority:7",
			 "-O", "hwrng:entropy_per_bit:nonsense", NULL };

	(void)state;
	assert_int_equal(build(&s, "-O", "hwrng:entropy_per_bit:0.1", "-O", "hwrng:priority:40", "-r", "/a", NULL),
			 0);
	assert_true(source_of(&s, "hwrng")->entropy_per_bit == 0.1);
	assert_true(settings_of(&s, "hwrng")->credit_explicit);
	rngd_options_init(&o);
	assert_int_equal(rngd_options_parse_argv(&o, 7, argv, s.err), 0);
	assert_int_equal(rngd_source_set_reapply(&o, s.slots, s.n, s.err), -EINVAL);
	assert_non_null(strstr(s.err, "nonsense"));
	/* Not the built-in 0.5, not the new 0.3: the old configuration, whole. */
	assert_true(source_of(&s, "hwrng")->entropy_per_bit == 0.1);
	assert_true(settings_of(&s, "hwrng")->credit_explicit);
	assert_int_equal(source_of(&s, "hwrng")->priority, 40);
	assert_int_equal(source_of(&s, "file")->priority, rng_source_file_ops.default_priority);
	rngd_options_free(&o);
	rngd_slots_free(s.slots, s.n);
}

/* A reader re-opening its source, as it may while a SIGHUP is answered:
 * it writes the source's why (rng_source_why()) and nothing the reload
 * commits. */
struct reopening_reader {
	struct rng_source *src;
	bool stop;
	unsigned int opens;
};

static void *reopen_until_stopped(void *arg)
{
	struct reopening_reader *r = arg;

	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		snprintf(r->src->why, sizeof(r->src->why), "cannot open: attempt %u", r->opens);
		__atomic_add_fetch(&r->opens, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* The reload reads a source's name and ops, never what its reader writes:
 * under ThreadSanitizer (tests/tsan/test_daemon_source_set_tsan) a copy
 * of the whole source is a data race on why. */
static void test_reapply_beside_a_reopening_reader(void **state)
{
	struct rngd_options o;
	struct set s;
	struct reopening_reader reader = { 0 };
	pthread_t thread;
	char *argv[] = { "rngd", "-O", "file:priority:9", NULL };

	(void)state;
	assert_int_equal(build(&s, "-r", "/a", NULL), 0);
	reader.src = rngd_slot_source_mut(find(&s, "file"));
	rngd_options_init(&o);
	assert_int_equal(rngd_options_parse_argv(&o, 3, argv, s.err), 0);
	assert_int_equal(pthread_create(&thread, NULL, reopen_until_stopped, &reader), 0);
	/* Reloads while it writes, not before it began. */
	while (__atomic_load_n(&reader.opens, __ATOMIC_RELAXED) == 0)
		sched_yield();
	for (int i = 0; i < 200; i++)
		assert_int_equal(rngd_source_set_reapply(&o, s.slots, s.n, s.err), 0);
	__atomic_store_n(&reader.stop, true, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(thread, NULL), 0);
	assert_int_equal(source_of(&s, "file")->priority, 9);
	assert_non_null(strstr(source_of(&s, "file")->why, "cannot open: attempt"));
	rngd_options_free(&o);
	rngd_slots_free(s.slots, s.n);
}

RNGD_TEST_MAIN(
	cmocka_unit_test(test_every_built_source_enabled_at_its_default_credit),
	cmocka_unit_test(test_file_instances),
	cmocka_unit_test(test_exclude_include_order),
	cmocka_unit_test(test_source_options_reach_their_named_instance),
	cmocka_unit_test(test_bad_selection_or_key_refused_with_its_reason),
	cmocka_unit_test(test_reapply_resets_dropped_keys_and_applies_new_ones),
	cmocka_unit_test(test_failed_reapply_changes_nothing),
	cmocka_unit_test(test_reapply_beside_a_reopening_reader)
)
