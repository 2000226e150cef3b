#include "app/gui/lab_page.h"

#include "app/core/key_text.h"
#include "app/core/workspace.h"
#include "app/lab/contention_lab.h"
#include "etcdclient/clock.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>

namespace lockscope {

namespace {

QSpinBox* spin(QWidget* parent, int min, int max, int value, const QString& suffix) {
    auto* box = new QSpinBox(parent);
    box->setRange(min, max);
    box->setValue(value);
    box->setSuffix(suffix);
    return box;
}

QDoubleSpinBox* percent(QWidget* parent, const QString& tip) {
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(0, 100);
    box->setDecimals(1);
    box->setSuffix(" %");
    box->setToolTip(tip);
    return box;
}

// The comma-separated names of the lock field as bytes (\xNN escapes; \x2c is a comma). A name
// with a bad escape is left out and the first such problem kept in `problem`.
std::vector<std::string> lockNames(const QString& text, QString& problem) {
    std::vector<std::string> names;
    for (const auto& name : text.split(',', Qt::SkipEmptyParts)) {
        std::string why;
        if (const auto bytes = parseKeyText(name.trimmed().toStdString(), why))
            names.push_back(*bytes);
        else if (problem.isEmpty())
            problem = LabPage::tr("lock names: %1").arg(QString::fromStdString(why));
    }
    return names;
}

} // namespace

LabPage::LabPage(QWidget* parent)
    : QWidget(parent)
    , workers_(spin(this, 1, 200, 8, tr(" workers")))
    , locks_(new QLineEdit("/lockscope-lab/lock", this))
    , hold_(spin(this, 0, 60000, 300, tr(" ms")))
    , think_(spin(this, 0, 60000, 200, tr(" ms")))
    , ttl_(spin(this, 1, 600, 3, tr(" s")))
    , stall_(percent(this, tr("Chance that a holder's keepalives stop while it holds on past its "
                              "TTL: a split brain unless writes are fenced")))
    , crash_(percent(this, tr("Chance that a holder vanishes without releasing; its key stays "
                              "until the lease expires")))
    , slow_(percent(this, tr("Chance that a holder keeps the lock five times as long")))
    , fencing_(new QCheckBox(tr("Fence resource writes with the lock's fencing token"), this))
    , deadlock_(new QCheckBox(tr("Deadlock: each worker also takes the next lock"), this))
    , start_(new QPushButton(tr("Start"), this))
    , step_(new QPushButton(tr("Step"), this))
    , stop_(new QPushButton(tr("Stop"), this))
    , figures_(new QLabel(this)) {
    locks_->setToolTip(tr("Comma-separated lock names the workers contend on"));
    fencing_->setChecked(true);
    deadlock_->setToolTip(
        tr("Each worker holds its lock, then takes the next name in Locks on the same session, as "
           "a program holding one lock while it takes another. With a worker per lock the "
           "sessions wait on each other in a ring that no TTL ends (lockscopectl blockers names "
           "it)."));
    figures_->setWordWrap(true);
    figures_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    step_->setToolTip(tr("Each worker acquires once, then stops"));

    auto* form = new QFormLayout;
    form->addRow(tr("Workers"), workers_);
    form->addRow(tr("Locks"), locks_);
    form->addRow(tr("Hold"), hold_);
    form->addRow(tr("Think"), think_);
    form->addRow(tr("Session TTL"), ttl_);
    form->addRow(tr("Stall"), stall_);
    form->addRow(tr("Crash"), crash_);
    form->addRow(tr("Slow"), slow_);
    form->addRow(QString(), fencing_);
    form->addRow(QString(), deadlock_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(start_);
    buttons->addWidget(step_);
    buttons->addWidget(stop_);
    buttons->addStretch();
    // Settings and figures in a column of readable width; the rest of the tab stays empty.
    auto* column = new QWidget(this);
    column->setMaximumWidth(560);
    auto* columnLayout = new QVBoxLayout(column);
    columnLayout->addLayout(form);
    columnLayout->addLayout(buttons);
    columnLayout->addWidget(figures_);
    columnLayout->addStretch();
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(column);
    layout->addStretch();

    connect(start_, &QPushButton::clicked, this, &LabPage::start);
    connect(step_, &QPushButton::clicked, this, &LabPage::step);
    connect(stop_, &QPushButton::clicked, this, &LabPage::stop);
    refreshTimer_.setInterval(RefreshIntervalMs);
    connect(&refreshTimer_, &QTimer::timeout, this, &LabPage::refresh);
    updateButtons();
}

LabPage::~LabPage() = default;

void LabPage::setWorkspace(Workspace* workspace) {
    if (workspace_ && workspace != workspace_) {
        refresh(); // the final figures stay shown
        refreshTimer_.stop();
    }
    workspace_ = workspace;
    updateButtons();
}

lab::LabOptions LabPage::options() const {
    lab::LabOptions o;
    o.workers = workers_->value();
    QString ignored; // launch() says it
    o.locks = lockNames(locks_->text(), ignored);
    o.hold = std::chrono::milliseconds(hold_->value());
    o.think = std::chrono::milliseconds(think_->value());
    o.ttlSeconds = ttl_->value();
    o.stallProbability = stall_->value() / 100;
    o.crashProbability = crash_->value() / 100;
    o.slowProbability = slow_->value() / 100;
    o.fencing = fencing_->isChecked();
    o.deadlock = deadlock_->isChecked();
    return o;
}

void LabPage::setOptions(const lab::LabOptions& o) {
    workers_->setValue(o.workers);
    QStringList names;
    for (const auto& l : o.locks)
        names << QString::fromStdString(displayKey(l));
    locks_->setText(names.join(','));
    hold_->setValue(static_cast<int>(o.hold.count()));
    think_->setValue(static_cast<int>(o.think.count()));
    ttl_->setValue(static_cast<int>(o.ttlSeconds));
    stall_->setValue(o.stallProbability * 100);
    crash_->setValue(o.crashProbability * 100);
    slow_->setValue(o.slowProbability * 100);
    fencing_->setChecked(o.fencing);
    deadlock_->setChecked(o.deadlock);
}

void LabPage::start() {
    launch(false);
}
void LabPage::step() {
    launch(true);
}

void LabPage::launch(bool once) {
    if (!usable() || running())
        return;
    const lab::LabOptions o = options();
    QString problem;
    lockNames(locks_->text(), problem);
    if (problem.isEmpty())
        problem =
            QString::fromStdString(o.problem()); // app/lab is plain C++: its texts are English
    if (!problem.isEmpty()) {
        QMessageBox::warning(this, tr("Contention lab"), problem);
        return;
    }
    workspace_->startLab(o, once);
    overlapsShown_.clear();
    lastAcquisitions_ = 0;
    refreshTimer_.start();
    updateButtons();
}

void LabPage::stop() {
    if (workspace_)
        workspace_->stopLab();
    refresh();
    refreshTimer_.stop();
    updateButtons();
}

bool LabPage::running() const {
    return lab() && lab()->running();
}

QString LabPage::figures() const {
    return figures_->text();
}

void LabPage::refresh() {
    if (!lab())
        return;
    const auto report = lab()->report(false);
    const auto& c = report.counters;
    const double perSecond =
        static_cast<double>(c.acquisitions - lastAcquisitions_) / (RefreshIntervalMs / 1000.0);
    lastAcquisitions_ = c.acquisitions;
    figures_->setText(
        tr("%1 acquisitions (%2/s now)\nchaos: %3 stalls, %4 crashes, %5 slow holds\n"
           "resource writes: %6 applied, %7 rejected by fencing, %8 landed without the lock\n"
           "split brains found: %9 overlapping pairs of holds, from %10 holders that held on "
           "after another took over%11")
            .arg(c.acquisitions)
            .arg(running() ? perSecond : 0.0, 0, 'f', 1)
            .arg(c.stalls)
            .arg(c.crashes)
            .arg(c.slowHolds)
            .arg(c.writesApplied)
            .arg(c.writesRejectedByFencing)
            .arg(c.writesWithoutLock)
            .arg(report.overlapsFound)
            .arg(report.outlivingHolds)
            .arg(report.overlaps.empty()
                     ? QString()
                     : tr(" (longest %1 ms, workers %2 and %3 on %4)")
                           .arg(report.overlaps[0].lasted.count())
                           .arg(report.overlaps[0].first.worker)
                           .arg(report.overlaps[0].second.worker)
                           .arg(QString::fromStdString(displayKey(report.overlaps[0].lock)))));
    // Each split brain goes to the timeline once (the report lists the longest); only the
    // listed ones are remembered, since one that left the list never comes back to it.
    QSet<QString> listed;
    for (const auto& o : report.overlaps) {
        const QString id = QStringLiteral("%1|%2|%3")
                               .arg(o.first.fencingToken)
                               .arg(o.second.fencingToken)
                               .arg(QString::fromStdString(o.lock));
        listed.insert(id);
        if (overlapsShown_.contains(id))
            continue;
        emit overlapFound(QString::fromStdString(displayKey(o.lock)),
                          etcd::unixSeconds(o.second.from),
                          etcd::unixSeconds(std::min(o.first.to, o.second.to)),
                          o.first.fencingToken, o.second.fencingToken);
    }
    overlapsShown_ = std::move(listed);
    if (!running())
        updateButtons();
}

void LabPage::updateButtons() {
    const bool busy = running();
    start_->setEnabled(usable() && !busy);
    step_->setEnabled(usable() && !busy);
    stop_->setEnabled(lab() != nullptr);
}

bool LabPage::usable() const {
    return workspace_ && workspace_->client() && !workspace_->ending();
}

lab::ContentionLab* LabPage::lab() const {
    return workspace_ ? workspace_->lab().get() : nullptr;
}

} // namespace lockscope
