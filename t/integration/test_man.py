"""The manual page and the bash completion: the committed copies in
doc/ are exactly what the binary writes from its flag and option tables
(run 'make man' when this fails), the completion completes, and make install
/ make uninstall put them into (and take them out of) a DESTDIR."""
import os
import pty
import re
import select
import shutil
import subprocess
import time

from sbtest import BIN, SRC, SbCase


class TestManAndCompletion(SbCase):
    def documented(self):
        """--doc-workloads= of the workloads the committed copies document:
        the completion's workload= values"""
        with open(os.path.join(SRC, "doc/storbench.bash")) as f:
            m = re.search(r"--workload=\*\) values='([^']*)'", f.read())
        self.assertIsNotNone(m, "doc/storbench.bash completes no workload= values")
        return "--doc-workloads=" + ",".join(w for w in m.group(1).split() if w != "io")

    def generated(self, *flags):
        p = self.run_sb(*flags)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout

    def test_committed_copies_match_the_tables(self):
        """for the workloads the committed copies document (the completion's
        workload= values): a workload added since, without its documentation,
        changes neither (its rows' help documents it: --cmdhelp)"""
        for flag, path in (("--man-page", "doc/storbench.1"), ("--bash-completion", "doc/storbench.bash")):
            with open(os.path.join(SRC, path)) as f:
                self.assertEqual(f.read(), self.generated(self.documented(), flag),
                                 f"{path} differs from storbench {flag}: run 'make man'")

    def test_man_page_names_every_flag_and_option(self):
        man = self.generated("--man-page")
        helptext = self.run_sb("--help").stdout
        flags = re.findall(r"^  (--[a-z][a-z-]*)", helptext, re.M)
        self.assertGreater(len(flags), 20)
        for name in flags:
            self.assertTrue("\\fB" + name.replace("-", "\\-") + "\\fR" in man, name)
        opts = self.run_sb("--cmdhelp").stdout
        for line in opts.splitlines():
            if line.startswith("  ") and line.split():
                name = line.split()[0]
                if name.replace("_", "").isalnum():
                    self.assertTrue("\\fB" + name.replace("-", "\\-") + "\\fR" in man, name)
        if shutil.which("groff"):
            p = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z"], input=man, text=True,
                               capture_output=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertNotIn("warning: macro", p.stderr)

    @staticmethod
    def comp_words(line):
        """COMP_WORDS and COMP_CWORD as bash fills them for the line up to the
        cursor: blanks separate words, and each '=' or ':' (COMP_WORDBREAKS)
        is a word of its own ("--rw=ra" -> "--rw", "=", "ra")."""
        out, cur = [], ""
        for ch in line:
            if ch in " \t":
                if cur:
                    out.append(cur)
                cur = ""
            elif ch in "=:":
                if cur:
                    out.append(cur)
                out.append(ch)
                cur = ""
            else:
                cur += ch
        if cur or line[-1:] in (" ", "\t"):
            out.append(cur)
        return out, len(out) - 1

    def complete(self, line):
        """COMPREPLY of the generated script's function, driven as bash's
        programmable completion does: the script sourced, COMP_LINE,
        COMP_POINT, COMP_WORDS and COMP_CWORD set, then the function that
        `complete -p storbench` names called."""
        script = os.path.join(self.dir, "c.bash")
        with open(script, "w") as f:
            f.write(self.generated("--bash-completion"))
        drive = ('source "$1"; shift; fn=$(complete -p storbench); fn=${fn#*-F }; fn=${fn%% *}\n'
                 'COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}; COMP_CWORD=$2; shift 2\n'
                 'COMP_WORDS=("$@"); "$fn"; printf "%s\\n" "${COMPREPLY[@]}"\n')
        words, cword = self.comp_words(line)
        p = subprocess.run(["bash", "-c", drive, "drive", script, line, str(cword), *words],
                           capture_output=True, text=True, cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout.split()

    def test_completion(self):
        if not shutil.which("bash"):
            self.skipTest("bash not installed")
        self.assertIn("--section=", self.complete("storbench --sec"))
        self.assertIn("--readonly", self.complete("storbench --read"))
        self.assertIn("--iodepth=", self.complete("storbench --iodep"))
        self.assertEqual(self.complete("storbench --rw=randr"), ["randread", "randrw"])
        self.assertEqual(self.complete("storbench --eta=n"), ["never"])
        self.assertIn("null", self.complete("storbench --ioengine="))
        self.assertIn("c.bash", self.complete("storbench c."))

    def typed(self, keys, setup=""):
        """What an interactive bash (readline, on a pseudo-terminal) runs
        after keys are typed with the generated completion loaded:
        storbench is a function printing each argument as <arg>.  Returns
        (the argument lines, everything the terminal showed)."""
        script = os.path.join(self.dir, "c.bash")
        with open(script, "w") as f:
            f.write(self.generated("--bash-completion"))
        os.makedirs(os.path.join(self.dir, "subdir"), exist_ok=True)
        env = dict(os.environ, PS1="$ ", TERM="dumb", INPUTRC="/dev/null", HOME=self.dir)
        pid, fd = pty.fork()
        if pid == 0:
            os.chdir(self.dir)
            os.execvpe("bash", ["bash", "--norc", "--noprofile", "-i"], env)
        out = b""
        try:
            os.write(fd, ("source %s; %s\nstorbench() { printf '<%%s>\\n' \"$@\"; }\n"
                          % (script, setup)).encode())
            for k in keys:  # one key group at a time: readline sees each TAB alone
                time.sleep(0.3)
                os.write(fd, k.encode())
            time.sleep(0.3)
            os.write(fd, b"\necho END-OF-KEYS; exit\n")
            end = time.time() + 60
            while time.time() < end and b"END-OF-KEYS\r\n" not in out:
                r, _, _ = select.select([fd], [], [], 1)
                if r:
                    try:
                        chunk = os.read(fd, 4096)
                    except OSError:
                        break
                    if not chunk:
                        break
                    out += chunk
        finally:
            os.close(fd)
            os.waitpid(pid, 0)
        text = out.decode(errors="replace")
        return re.findall(r"^<(.*)>\r?$", text, re.M), text

    def test_completion_through_readline(self):
        """Completion through readline: `--ioeng<TAB>` must not become
        `--ioengine\\=` (complete -o filenames: readline quotes the '=' as in
        a file name), after which `ps<TAB>` completes nothing.  Typed into an interactive
        bash: option names end in a bare '=', the value after it completes
        from the option's values (engines, enums, 0/1, a subcommand's
        choices), a folder gets its '/', and with '=' taken out of
        COMP_WORDBREAKS the value still completes."""
        if not shutil.which("bash"):
            self.skipTest("bash not installed")
        cases = [
            (["storbench --ioeng\t", "ps\t"], ["--ioengine=psync"]),
            (["storbench --rw=randw\t"], ["--rw=randwrite"]),
            (["storbench --zonemo\t", "zb\t"], ["--zonemode=zbd"]),
            (["storbench --eta=al\t"], ["--eta=always"]),
            (["storbench --parse-only=v\t"], ["--parse-only=verbose"]),
            (["storbench --output-for\t", "js\t"], ["--output-format=json"]),
            (["storbench --output=subd\t", "f"], ["--output=subdir/f"]),
            (["storbench analyze --fil\t", "x"], ["analyze", "--filter=x"]),
            (["storbench analyze --output-f\t", "j\t"], ["analyze", "--output-format=json"]),
            (["storbench compare --output-format=no\t"], ["compare", "--output-format=normal"]),
            (["storbench datasize mod\t", "res\t"], ["datasize", "model=resnet50"]),
        ]
        for keys, want in cases:
            with self.subTest(keys=keys):
                args, shown = self.typed(keys)
                self.assertEqual(args, want, shown)
                self.assertNotIn("\\=", shown)
        args, shown = self.typed(["storbench --ioengine=ps\t"],
                                 setup="COMP_WORDBREAKS=${COMP_WORDBREAKS//=/}")
        self.assertEqual(args, ["--ioengine=psync"], shown)

    def test_completion_of_subcommands(self):
        # the subcommands and their flags, from the tables
        # their --help prints (tools/*.c sb_*_flags, tools/tools.c)
        if not shutil.which("bash"):
            self.skipTest("bash not installed")
        self.assertEqual(self.complete("storbench rep"), ["report"])
        self.assertEqual(self.complete("storbench a"), ["analyze"])
        self.assertEqual(self.complete("storbench analyze --fil"), ["--filter="])
        self.assertEqual(self.complete("storbench analyze --output-format=j"), ["json"])
        self.assertEqual(self.complete("storbench compare --output-format="), ["normal", "json"])
        self.assertEqual(self.complete("storbench compare --tol"), ["--tolerance="])
        self.assertEqual(self.complete("storbench report --ti"), ["--title="])
        self.assertEqual(self.complete("storbench datasize mo"), ["model="])
        self.assertEqual(self.complete("storbench datasize model=r"), ["resnet50"])
        self.assertIn("c.bash", self.complete("storbench report c."))  # result files
        # each tool offers exactly the flags its --help lists
        for tool in ("report", "compare", "analyze", "datasize", "validate"):
            helptext = self.run_sb(tool, "--help").stdout
            listed = re.findall(r"^  (--[a-z-]+=?)", helptext, re.M)
            self.assertTrue(listed, tool)
            self.assertEqual(sorted(self.complete(f"storbench {tool} --")), sorted(listed), tool)

    def test_completion_offers_each_name_once_and_only_accepted_values(self):
        if not shutil.which("bash"):
            self.skipTest("bash not installed")
        every = self.complete("storbench --")
        self.assertGreater(len(every), 200)
        self.assertEqual(every.count("--name="), 1)
        self.assertEqual(len(every), len(set(every)), [w for w in set(every) if every.count(w) > 1])
        # every --rw= value offered is one storbench accepts, and what it
        # refuses is not offered
        modes = self.complete("storbench --rw=")
        self.assertIn("randrw", modes)
        self.assertNotIn("bogus", modes)
        for m in modes:
            p = self.run_sb("--parse-only", "--name=j", f"--rw={m}", "--size=1m")
            self.assertEqual(p.returncode, 0, f"--rw={m}: {p.stderr}")
        p = self.run_sb("--parse-only", "--name=j", "--rw=bogus", "--size=1m")
        self.assertNotEqual(p.returncode, 0)

    def test_install_and_uninstall_into_destdir(self):
        if not shutil.which("make") or not os.path.exists(os.path.join(SRC, "Makefile")):
            self.skipTest("make not installed")
        dest = os.path.join(self.dir, "root")
        b = os.path.relpath(os.path.dirname(os.path.abspath(BIN)), SRC)
        # -o: never rebuild the binary under test (a sanitizer build needs its flags)
        args = ["make", "-s", "-C", SRC, f"B={b}", "-o", f"{b}/storbench", f"DESTDIR={dest}",
                "PREFIX=/usr"]
        p = subprocess.run(args + ["install"], capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        for f in ("usr/bin/storbench", "usr/share/man/man1/storbench.1",
                  "usr/share/bash-completion/completions/storbench",
                  "usr/share/doc/storbench/HOWTO.md"):
            self.assertTrue(os.path.isfile(os.path.join(dest, f)), f)
        with open(os.path.join(dest, "usr/share/man/man1/storbench.1")) as f:
            self.assertEqual(f.read(), self.generated(self.documented(), "--man-page"))
        keep = os.path.join(dest, "usr/share/man/man1/other.1")  # not ours: must stay
        with open(keep, "w") as f:
            f.write("x")
        p = subprocess.run(args + ["uninstall"], capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        left = sorted(os.path.relpath(os.path.join(r, n), dest) for r, _, fs in os.walk(dest) for n in fs)
        self.assertEqual(left, ["usr/share/man/man1/other.1"])
        self.assertFalse(os.path.exists(os.path.join(dest, "usr/share/storbench")))
