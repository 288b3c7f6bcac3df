"""Long job-file lines.  fio 3.33 reads a line of any
length (init.c: __parse_jobs_ini grows its line buffer; checked with
`fio --parse-only` on the same files: a 600-file filename= list exits 0).
storbench refused lines over 1,000 characters; it now takes up to 1 MiB a
line (the job file and its includes may hold 16 MiB) and names the limit
for a longer one."""
import json
import unittest

from sbtest import SbCase

NAMES = ":".join("a%d" % i for i in range(600))
HEAD = "[j]\nioengine=null\nrw=read\nbs=4k\n"


class LongLines(SbCase):
    def test_600_file_list_parses_and_runs(self):
        job = self.write_job(HEAD + "size=2400k\nfilename=%s\n" % NAMES)
        self.assertGreater(len(NAMES), 2800)
        p = self.run_sb("--parse-only", job)
        self.assertEqual(p.returncode, 0, p.stderr[-500:])
        p = self.run_sb("--output-format=json", job)
        self.assertEqual(p.returncode, 0, p.stderr[-500:])
        r = json.loads(p.stdout)["jobs"][0]["read"]
        self.assertEqual(r["total_ios"], 600)       # one 4 KiB block per file
        self.assertEqual(r["io_bytes"], 600 * 4096)

    def test_64k_line(self):
        job = self.write_job(HEAD + "size=4k\ndescription=%s\nfilename=x\n" % ("d" * 65536))
        p = self.run_sb("--parse-only", job)
        self.assertEqual(p.returncode, 0, p.stderr[-500:])

    def test_quoted_long_value_loses_its_quotes(self):
        # as iniparser drops the quotes of a short value
        job = self.write_job(HEAD + 'size=2400k\nfilename="%s"\n' % NAMES)
        p = self.run_sb("--output-format=json", job)
        self.assertEqual(p.returncode, 0, p.stderr[-500:])
        self.assertEqual(json.loads(p.stdout)["jobs"][0]["read"]["total_ios"], 600)

    def test_line_over_1mib_refused_with_the_limit(self):
        job = self.write_job(HEAD + "size=4k\nfilename=x\ndescription=%s\n" % ("d" * (2 << 20)))
        for args in (["--parse-only", job], [job]):
            p = self.run_sb(*args)
            self.assertEqual(p.returncode, 1, p.stderr[-500:])
            self.assertIn("job.ini:7: line is too long (2097164 characters, max 1048576 = 1 MiB", p.stderr)
            self.assertIn("split the value", p.stderr)
            self.assertLess(len(p.stderr), 1000)
            self.assertEqual(self.listing(), ["job.ini"])   # nothing written


if __name__ == "__main__":
    unittest.main()
