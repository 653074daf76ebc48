// Checks that a Jenkinsfile parses as Groovy and has the structure hilperf's ci/Jenkinsfile promises.
// Usage: groovy ci/tests/check_jenkinsfile.groovy <Jenkinsfile>
// Exit 0 when it does; 1 with one line per problem ("check_jenkinsfile: <file>: <problem>") or the
// parser's message; 2 on a usage error.
//
// A declarative pipeline is a valid Groovy script (pipeline { … } is a call taking a closure), so
// the Groovy compiler is a real parser for it; Debian's groovy is 2.4, the line Jenkins itself
// runs pipelines with. It does not know Declarative's own rules (which directives go where): for
// those, Jenkins' linter (`declarative-linter` over the Jenkins CLI) is the reference.
// The structural checks walk the syntax tree (not the text), keeping the chain of enclosing calls:
// `junit` inside `post { always { … } }` is a call whose enclosing calls end in post/always.

import org.codehaus.groovy.ast.CodeVisitorSupport
import org.codehaus.groovy.ast.expr.ConstantExpression
import org.codehaus.groovy.ast.expr.Expression
import org.codehaus.groovy.ast.expr.MapExpression
import org.codehaus.groovy.ast.expr.MethodCallExpression
import org.codehaus.groovy.ast.expr.TupleExpression
import org.codehaus.groovy.control.CompilationUnit
import org.codehaus.groovy.control.MultipleCompilationErrorsException
import org.codehaus.groovy.control.Phases

// One method call: its name, the names of the calls it sits in (outermost first), its arguments.
class Call {
  String name
  List<String> path
  MethodCallExpression node

  // Named arguments (`junit keepProperties: true`) as key → expression.
  Map<String, Expression> named() {
    def result = [:]
    def args = node.arguments
    if (args instanceof TupleExpression) {
      args.expressions.findAll { it instanceof MapExpression }.each { map ->
        map.mapEntryExpressions.each { result[it.keyExpression.text] = it.valueExpression }
      }
    }
    result
  }

  // Positional string arguments (`label 'hil-board'`, `sh '…'`).
  List<String> strings() {
    def args = node.arguments
    if (!(args instanceof TupleExpression)) return []
    args.expressions.findAll { it instanceof ConstantExpression && it.value instanceof String }
        .collect { it.value as String }
  }

  boolean inside(String... names) { path.size() >= names.length && path[-names.length..-1] == names as List }
}

// Records every method call with its enclosing calls, and every string constant.
class CallCollector extends CodeVisitorSupport {
  List<Call> calls = []
  List<String> strings = []
  private List<String> stack = []

  @Override
  void visitMethodCallExpression(MethodCallExpression call) {
    calls << new Call(name: call.methodAsString, path: new ArrayList<>(stack), node: call)
    call.objectExpression.visit(this)
    call.method.visit(this)
    stack << (call.methodAsString ?: '?')
    call.arguments.visit(this)
    stack.remove(stack.size() - 1)
  }

  @Override
  void visitConstantExpression(ConstantExpression expression) {
    if (expression.value instanceof String) strings << (expression.value as String)
  }
}

static boolean isTrue(Expression e) { e instanceof ConstantExpression && e.value == true }
static boolean isFalse(Expression e) { e instanceof ConstantExpression && e.value == false }
static String constant(Expression e) { e instanceof ConstantExpression ? e.value as String : null }

if (args.length != 1) {
  System.err.println('usage: groovy check_jenkinsfile.groovy <Jenkinsfile>')
  System.exit(2)
}
def file = new File(args[0])
if (!file.isFile()) {
  System.err.println("check_jenkinsfile: ${args[0]}: no such file")
  System.exit(1)
}
def text = file.text

// 1. It must compile as a Groovy script: the whole compiler, as GroovyShell.parse does.
try {
  new GroovyShell().parse(text, 'Jenkinsfile')
} catch (MultipleCompilationErrorsException e) {
  System.err.println("check_jenkinsfile: ${args[0]}: does not parse as Groovy:\n${e.message}")
  System.exit(1)
}

// 2. The syntax tree of the script body.
def unit = new CompilationUnit()
def source = unit.addSource('Jenkinsfile', text)
unit.compile(Phases.CONVERSION)
def collector = new CallCollector()
source.AST.statementBlock.visit(collector)
def calls = collector.calls

def problems = []
def find = { String name -> calls.findAll { it.name == name } }

if (!find('pipeline').any { it.path.isEmpty() }) {
  problems << 'no top-level `pipeline { … }` block (not a declarative pipeline)'
}

def boardLabels = find('label').findAll { it.inside('agent') && it.strings().contains('hil-board') }
if (boardLabels.isEmpty()) problems << "no `agent { label 'hil-board' }` for the HIL stage"

def junitHil = find('junit').findAll { constant(it.named().testResults) == 'build/ci/hil-junit.xml' }
if (junitHil.isEmpty()) {
  problems << "no `junit testResults: 'build/ci/hil-junit.xml'` step"
} else {
  if (!junitHil.any { it.inside('post', 'always') }) {
    problems << 'the HIL junit step is not inside `post { always { … } }` (a failed run would publish nothing)'
  }
  if (!junitHil.every { isTrue(it.named().keepProperties) }) {
    problems << 'the HIL junit step lacks `keepProperties: true` (the measured figures would be dropped)'
  }
  if (!junitHil.every { isFalse(it.named().allowEmptyResults) }) {
    problems << 'the HIL junit step lacks `allowEmptyResults: false` (a run without a report would pass)'
  }
}

def archived = find('archiveArtifacts').findAll { it.inside('post', 'always') }
    .collect { constant(it.named().artifacts) ?: it.strings().join(',') }.join(',')
['hil-results.jsonl', 'hil-report'].each {
  if (!archived.contains(it)) problems << "no archiveArtifacts of build/ci/${it}… inside `post { always { … } }`"
}

if (!find('cron').any { it.inside('triggers') }) problems << 'no `triggers { cron(…) }` for the nightly run'
if (!collector.strings.any { it.contains('TimerTrigger') }) {
  problems << 'the timer-triggered build is not recognised (no TimerTrigger cause check)'
}
if (!collector.strings.any { it.contains('--nightly') }) problems << 'nothing passes `--nightly` to ci/run-hil'

def hilRuns = find('sh').findAll { call -> call.strings().any { it.contains('ci/run-hil') } }
if (!hilRuns.any { call -> call.strings().any { it.contains('--profile "$HILPERF_PROFILE"') } }) {
  problems << 'no `sh \'ci/run-hil --profile "$HILPERF_PROFILE" …\'` step'
}
if (!find('string').any { call -> constant(call.named().name) == 'HILPERF_PROFILE' &&
                                  constant(call.named().defaultValue) == 'ci/boards/sim.toml' }) {
  problems << "no HILPERF_PROFILE parameter defaulting to 'ci/boards/sim.toml'"
}
if (!find('retry').isEmpty()) {
  problems << 'a `retry` step: a failed HIL run is a real failure, it must not be retried'
}
if (!find('sh').any { call -> call.strings().any { it.contains('ci/run-tests') } }) {
  problems << 'no `sh \'ci/run-tests\'` step (build and own tests)'
}

problems.each { System.err.println("check_jenkinsfile: ${args[0]}: ${it}") }
if (problems) System.exit(1)
println "check_jenkinsfile: ${args[0]}: parses; HIL stage on 'hil-board', junit with properties in post/always, nightly cron"
