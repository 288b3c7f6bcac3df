"""test_fio_auxpath.py: --aux-path=DIR as fio 3.33 has it (fio's
t/verify_state_save.py gives it to its verify_only runs): the verify state
files go to DIR.

fio's facts used here (fio-3.33 source):
- init.c:294 and :2983 the flag; backend.c:2220-2222: the state is loaded
  from "AUX/local-..." (else "local-..."); verify.c:1651
  verify_state_gen_name: the name local-JOB-THREAD-verify.state.
"""
import os

from sbtest import SbCase

JOB = ["--name=v", "--size=64k", "--bs=4k", "--rw=randwrite", "--verify=crc32c"]


class TestAuxPath(SbCase):
    def test_state_in_aux(self):
        aux = os.path.join(self.dir, "aux")
        data = os.path.join(self.dir, "d")
        os.mkdir(aux)
        os.mkdir(data)
        p = self.run_sb("--aux-path=" + aux, "--directory=" + data, *JOB, "--numjobs=2",
                        "--verify_state_save=1", "--do_verify=0", "--output=/dev/null")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(sorted(os.listdir(aux)), ["local-v-0-verify.state",
                                                  "local-v-1-verify.state"])
        self.assertEqual(sorted(os.listdir(data)), ["v.0.0", "v.1.0"])
        # loaded from there
        p = self.run_sb("--aux-path=" + aux, "--directory=" + data, *JOB, "--numjobs=2",
                        "--verify_only=1", "--verify_state_load=1", "--output-format=json")
        self.assertEqual(p.returncode, 0, p.stderr)
        # without it the state is looked for beside the file: not there
        p = self.run_sb("--directory=" + data, *JOB, "--verify_only=1", "--verify_state_load=1",
                        "--output=/dev/null")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn(os.path.join(data, "local-v-0-verify.state"), p.stderr)

    def test_needs_a_folder(self):
        p = self.run_sb("--aux-path=", *JOB, "--ioengine=null")
        self.assertEqual(p.returncode, 2)
        self.assertIn("--aux-path", p.stderr)
