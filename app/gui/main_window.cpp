#include "app/gui/main_window.h"

#include "app/core/cluster_status_probe.h"
#include "app/core/completion_latch.h"
#include "app/core/duration_text.h"
#include "app/core/endpoint_status_model.h"
#include "app/core/event_log_model.h"
#include "app/core/guarded_post.h"
#include "app/core/key_text.h"
#include "app/core/lock_actions.h"
#include "app/core/lock_list_model.h"
#include "app/core/queue_model.h"
#include "app/core/cluster_session.h"
#include "app/gui/connection_profiles.h"
#include "app/gui/lab_panel.h"
#include "app/gui/lock_charts.h"
#include "app/core/lock_watch.h"
#include "app/gui/password_source.h"
#include "app/core/sandbox.h"
#include "etcdclient/lease_ttl.h"
#include "widgets/acquire_dialog.h"
#include "widgets/connection_dialog.h"
#include "widgets/frame_rate_cap.h"
#include "widgets/holder_card.h"
#include "widgets/latency_plot.h"
#include "widgets/plain_text_delegate.h"
#include "widgets/ttl_countdown_delegate.h"

#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QThread>
#include <QToolBar>
#include <QVBoxLayout>

namespace lockscope {

namespace {

constexpr int MaxRecentPrefixes = 10;

QWidget* framed(const QString& title, QWidget* content) {
    auto* box = new QGroupBox(title);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(content);
    return box;
}

// Rows of one height, so a view of ten thousand rows never measures them; columns sized once
// by the caller, never ResizeToContents, which scans every row. `stretch` takes the width left;
// keys are elided in the middle, where keys of one lock differ least.
QTableView* tableView(const QString& name, QAbstractItemModel* model, int stretch) {
    auto* view = new QTableView;
    view->setObjectName(name);
    view->setModel(model);
    view->setItemDelegate(new PlainTextDelegate(view));
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle);
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    view->horizontalHeader()->setSectionResizeMode(stretch, QHeaderView::Stretch);
    view->horizontalHeader()->setHighlightSections(false);
    return view;
}

// 0 for the stretched column.
void setColumnWidths(QTableView* view, std::initializer_list<int> widths) {
    int column = 0;
    for (int width : widths) {
        if (width > 0)
            view->setColumnWidth(column, width);
        ++column;
    }
}

QLineEdit* filterBox(const QString& name, const QString& placeholder) {
    auto* box = new QLineEdit;
    box->setObjectName(name);
    box->setPlaceholderText(placeholder);
    box->setClearButtonEnabled(true);
    return box;
}

QSortFilterProxyModel* filterProxy(QAbstractItemModel* source, int column, QLineEdit* box,
                                   QObject* parent) {
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(source);
    proxy->setFilterKeyColumn(column);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    QObject::connect(box, &QLineEdit::textChanged, proxy,
                     &QSortFilterProxyModel::setFilterFixedString);
    return proxy;
}

QLabel* heading(const QString& text) {
    auto* label = new QLabel(text);
    QFont bold = label->font();
    bold.setBold(true);
    label->setFont(bold);
    return label;
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , lockWatch_(new LockWatch(this))
    , prefixBox_(new QComboBox)
    , liveLabel_(new QLabel)
    , lockFilter_(filterBox("lockFilter", tr("Filter locks by name (Ctrl+F)")))
    , lockProxy_(filterProxy(lockWatch_->locks(), LockListModel::Name, lockFilter_, this))
    , lockTable_(tableView("lockTable", lockProxy_, LockListModel::Name))
    , lockActionsBar_(new QToolBar)
    , holderCard_(new HolderCard)
    , queueTable_(tableView("queueTable", lockWatch_->queue(), QueueModel::Key))
    , eventFilter_(filterBox("eventFilter", tr("Filter events")))
    , eventProxy_(filterProxy(lockWatch_->events(), -1, eventFilter_, this))
    , eventTable_(tableView("eventTable", eventProxy_, EventLogModel::Key))
    , locksSplitter_(new QSplitter(Qt::Horizontal))
    , detailSplitter_(new QSplitter(Qt::Vertical))
    , clusterSplitter_(new QSplitter(Qt::Vertical))
    , statusModel_(new EndpointStatusModel(this))
    , statusTable_(new QTableView)
    , latencyPlot_(new LatencyPlot)
    , problemBanner_(new QLabel)
    , connectionLabel_(new QLabel)
    , endpointLabel_(new QLabel)
    , leaderLabel_(new QLabel)
    , revisionLabel_(new QLabel)
    , termLabel_(new QLabel)
    , roundTripLabel_(new QLabel)
    , charts_(new LockCharts)
    , labPanel_(new LabPanel) {
    setWindowTitle("LockScope");
    resize(1280, 800);
    new FrameRateCap(this, FrameInterval);

    problemBanner_->setObjectName("problemBanner");
    problemBanner_->setWordWrap(true);
    problemBanner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    problemBanner_->setStyleSheet("QLabel { background: #fdecea; color: #8a1c12; "
                                  "border: 1px solid #f5c2bd; border-radius: 4px; padding: 8px; }");
    problemBanner_->hide();

    prefixBox_->setObjectName("prefixBox");
    prefixBox_->setEditable(true);
    prefixBox_->setInsertPolicy(QComboBox::NoInsert); // setPrefix keeps the recent list
    prefixBox_->setMinimumContentsLength(30);
    prefixBox_->setToolTip(tr("The key prefix whose locks to watch (Ctrl+L); Enter applies it"));
    connect(prefixBox_, &QComboBox::textActivated, this, &MainWindow::setPrefix);
    // With NoInsert, Enter activates only a listed prefix; a newly typed one is applied here.
    connect(prefixBox_->lineEdit(), &QLineEdit::returnPressed, this,
            [this] { setPrefix(prefixBox_->currentText()); });
    liveLabel_->setObjectName("lockWatchStatus");
    liveLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* prefixRow = new QHBoxLayout;
    auto* prefixLabel = new QLabel(tr("Lock &prefix:"));
    prefixLabel->setBuddy(prefixBox_);
    prefixRow->addWidget(prefixLabel);
    prefixRow->addWidget(prefixBox_);
    prefixRow->addWidget(liveLabel_, 1);

    auto* tabs = new QTabWidget;
    tabs->setObjectName("mainTabs");
    tabs->addTab(createLocksTab(), tr("Locks"));
    tabs->addTab(charts_, tr("Timeline"));
    tabs->addTab(createClusterTab(), tr("Cluster"));
    tabs->addTab(labPanel_, tr("Lab"));
    labPanel_->setObjectName("labPanel");
    charts_->setObjectName("lockCharts");
    connect(lockWatch_, &LockWatch::eventsArrived, charts_, &LockCharts::addEvents);
    connect(labPanel_, &LabPanel::overlapFound, charts_, &LockCharts::markOverlap);
    depthTimer_.setInterval(LockCharts::DepthSampleMs);
    connect(&depthTimer_, &QTimer::timeout, this,
            [this] { charts_->sampleQueueDepth(lockWatch_->state()); });
    depthTimer_.start();

    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->addWidget(problemBanner_);
    layout->addLayout(prefixRow);
    layout->addWidget(tabs, 1);
    setCentralWidget(central);

    QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
    QAction* connectAction =
        fileMenu->addAction(tr("&Connect…"), this, &MainWindow::chooseConnection);
    connectAction->setObjectName("connectAction");
    connectAction->setShortcut(QKeySequence::Open);
    auto* exportAction = fileMenu->addAction(tr("&Export event log…"));
    exportAction->setObjectName("exportEventLogAction");
    connect(exportAction, &QAction::triggered, this, &MainWindow::chooseEventLogFile);
    readOnlyAction_ = fileMenu->addAction(tr("&Read-only"));
    readOnlyAction_->setObjectName("readOnlyAction");
    readOnlyAction_->setCheckable(true);
    readOnlyAction_->setToolTip(tr("Hide every action that writes to etcd"));
    connect(readOnlyAction_, &QAction::toggled, this, &MainWindow::setReadOnly);
    fileMenu->addSeparator();
    fileMenu->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    createLockActions();
    connect(new QShortcut(QKeySequence("Ctrl+L"), this), &QShortcut::activated, this, [this] {
        prefixBox_->setFocus(Qt::ShortcutFocusReason);
        prefixBox_->lineEdit()->selectAll();
    });
    connect(new QShortcut(QKeySequence::Find, this), &QShortcut::activated, this, [this] {
        lockFilter_->setFocus(Qt::ShortcutFocusReason);
        lockFilter_->selectAll();
    });

    connect(lockWatch_, &LockWatch::livenessChanged, this, &MainWindow::showLiveness);
    connect(lockWatch_, &LockWatch::refreshed, this, &MainWindow::showHolder);
    connect(lockWatch_, &LockWatch::refreshed, this, &MainWindow::updateLockActions);
    connect(queueTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &MainWindow::updateLockActions);
    connect(lockTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &MainWindow::selectLockAt);
    // The first lock to appear is shown at once, so a queue is in view without a click.
    connect(lockProxy_, &QAbstractItemModel::rowsInserted, this, [this] {
        if (!lockTable_->selectionModel()->currentIndex().isValid() && lockProxy_->rowCount() > 0)
            lockTable_->setCurrentIndex(lockProxy_->index(0, 0));
    });
    showLiveness(false, tr("not connected"));
    showHolder();

    connectionLabel_->setObjectName("connectionLabel");
    endpointLabel_->setObjectName("endpointLabel");
    for (QLabel* label : {connectionLabel_, endpointLabel_, leaderLabel_, revisionLabel_,
                          termLabel_, roundTripLabel_})
        statusBar()->addWidget(label);
    setConnectionState(tr("Not connected"), "gray");

    refreshTimer_.setInterval(RefreshIntervalMs);
    connect(&refreshTimer_, &QTimer::timeout, this, &MainWindow::refresh);

    passwords_ = new PasswordSource(this);
    connect(passwords_, &PasswordSource::ready, this, &MainWindow::replaceConnection);
    connect(passwords_, &PasswordSource::cancelled, this, [this] {
        if (session_ || problemBanner_->isVisible())
            return; // the connection in use stays, or the refusal stays said
        setConnectionState(tr("Not connected"), "gray");
        showProblem(tr("Not connected: no password was given. Choose File → Connect… to "
                       "connect."));
    });
    connect(passwords_, &PasswordSource::keyringFailed, this,
            [this](const QString& message) { statusBar()->showMessage(message, 10000); });
    restoreSettings();
}

QWidget* MainWindow::createLocksTab() {
    lockTable_->setItemDelegateForColumn(
        LockListModel::Ttl, new TtlCountdownDelegate(TtlRemainingRole, TtlGrantedRole, this));
    setColumnWidths(lockTable_, {0, 110, 60, 80, 75}); // the name keeps ~130 px of 460
    auto* lockPanel = new QWidget;
    auto* lockLayout = new QVBoxLayout(lockPanel);
    lockLayout->setContentsMargins(0, 0, 0, 0);
    lockLayout->addWidget(heading(tr("Locks")));
    lockLayout->addWidget(lockFilter_);
    lockLayout->addWidget(lockTable_, 1);

    queueTable_->setItemDelegateForColumn(
        QueueModel::Ttl, new TtlCountdownDelegate(TtlRemainingRole, TtlGrantedRole, this));
    setColumnWidths(queueTable_, {0, 65, 130, 75, 80, 95, 150});
    holderCard_->setObjectName("holderCard");
    lockActionsBar_->setObjectName("lockActionsBar");
    lockActionsBar_->setIconSize(QSize(16, 16));
    auto* detailPanel = new QWidget;
    auto* detailLayout = new QVBoxLayout(detailPanel);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    auto* detailHeader = new QHBoxLayout;
    detailHeader->addWidget(heading(tr("Holder and queue")));
    detailHeader->addStretch(1);
    detailHeader->addWidget(lockActionsBar_);
    detailLayout->addLayout(detailHeader);
    detailLayout->addWidget(holderCard_);
    detailLayout->addWidget(queueTable_, 1);

    locksSplitter_->setObjectName("locksSplitter");
    locksSplitter_->addWidget(lockPanel);
    locksSplitter_->addWidget(detailPanel);
    locksSplitter_->setStretchFactor(0, 2);
    locksSplitter_->setStretchFactor(1, 3);
    locksSplitter_->setSizes({460, 800});

    setColumnWidths(eventTable_, {95, 75, 150, 0, 140, 70, 80, 80, 80});
    auto* exportButton = new QPushButton(tr("Export…"));
    connect(exportButton, &QPushButton::clicked, this, &MainWindow::chooseEventLogFile);
    auto* eventPanel = new QWidget;
    auto* eventLayout = new QVBoxLayout(eventPanel);
    eventLayout->setContentsMargins(0, 0, 0, 0);
    auto* eventHeader = new QHBoxLayout;
    eventHeader->addWidget(heading(tr("Lock events")));
    eventHeader->addWidget(eventFilter_, 1);
    eventHeader->addWidget(exportButton);
    eventLayout->addLayout(eventHeader);
    eventLayout->addWidget(eventTable_, 1);
    // Follow the newest event unless the user scrolled up to read older ones. Once a frame, not
    // once a batch: each scroll moves the table's pixels in the window's backing store.
    followEvents_.setSingleShot(true);
    followEvents_.setInterval(FrameInterval);
    connect(&followEvents_, &QTimer::timeout, eventTable_, &QTableView::scrollToBottom);
    // Scrolling by hand while a follow is pending means "stop following".
    connect(eventTable_->verticalScrollBar(), &QAbstractSlider::actionTriggered, &followEvents_,
            &QTimer::stop);
    connect(lockWatch_->events(), &QAbstractItemModel::rowsInserted, eventTable_, [this] {
        QScrollBar* bar = eventTable_->verticalScrollBar();
        if (!followEvents_.isActive() &&
            bar->value() >=
                bar->maximum() - 2 * eventTable_->verticalHeader()->defaultSectionSize())
            followEvents_.start();
    });

    detailSplitter_->setObjectName("detailSplitter");
    detailSplitter_->addWidget(locksSplitter_);
    detailSplitter_->addWidget(eventPanel);
    detailSplitter_->setStretchFactor(0, 3);
    detailSplitter_->setStretchFactor(1, 1);
    detailSplitter_->setSizes({520, 200});
    return detailSplitter_;
}

QWidget* MainWindow::createClusterTab() {
    statusTable_->setObjectName("endpointStatusTable");
    statusTable_->setModel(statusModel_);
    statusTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    statusTable_->setAlternatingRowColors(true);
    statusTable_->verticalHeader()->hide();
    statusTable_->horizontalHeader()->setStretchLastSection(true);
    // Size the columns once, when the rows first appear: ResizeToContents would rescan every
    // row on every refresh.
    connect(statusModel_, &QAbstractItemModel::rowsInserted, statusTable_,
            &QTableView::resizeColumnsToContents);
    statusTable_->resizeColumnsToContents();

    latencyPlot_->setObjectName("latencyPlot");
    latencyPlot_->setWindowSeconds(120);

    clusterSplitter_->setObjectName("clusterSplitter");
    clusterSplitter_->addWidget(framed(tr("Members"), statusTable_));
    clusterSplitter_->addWidget(framed(tr("Round trip by RPC method"), latencyPlot_));
    clusterSplitter_->setStretchFactor(0, 1);
    clusterSplitter_->setStretchFactor(1, 3);
    clusterSplitter_->setSizes({180, 420});
    return clusterSplitter_;
}

MainWindow::~MainWindow() {
    // Monitor, then clients, then the sandbox's etcd: nothing is left talking to a stopped
    // server, and no monitor outlives the client it watches through.
    closeWhenReleased_ = false;
    disconnectSession();
    // Destroyed without a close (a termination signal, a test's end): the window is going
    // away, so waiting here for etcd's answers blocks nothing anyone sees, and it is bounded
    // by the command timeout. The answers arrive as calls queued on the application object.
    auto deadline = std::chrono::steady_clock::now();
    for (const Retiring& r : retiring_)
        deadline = std::max(deadline, r.deadline);
    while (!retiring_.empty() && std::chrono::steady_clock::now() < deadline) {
        QCoreApplication::sendPostedEvents(QCoreApplication::instance(), QEvent::MetaCall);
        QThread::msleep(5);
    }
    for (const Retiring& r : retiring_)
        delete r.session;
    retiring_.clear();
    delete sandbox_;
}

void MainWindow::setPrefix(const QString& prefix) {
    const QString text = prefix.isEmpty() ? QStringLiteral("/") : prefix;
    std::string problem; // the field takes escapes (\xNN, \\) for bytes text cannot hold
    const auto bytes = parseKeyText(text.toStdString(), problem);
    if (!bytes) {
        statusBar()->showMessage(tr("Prefix not changed: %1").arg(QString::fromStdString(problem)),
                                 10000);
        return;
    }
    QSettings settings;
    QStringList recent = settings.value("locks/recentPrefixes").toStringList();
    recent.removeAll(text);
    recent.prepend(text);
    recent = recent.mid(0, MaxRecentPrefixes);
    settings.setValue("locks/recentPrefixes", recent);
    const QSignalBlocker quiet(prefixBox_);
    prefixBox_->clear();
    prefixBox_->addItems(recent);
    prefixBox_->setCurrentIndex(0);
    lockWatch_->setPrefix(*bytes);
}

bool MainWindow::exportEventLog(const QString& path, QString& error) const {
    const EventLogModel* events = lockWatch_->events();
    return path.endsWith(".json", Qt::CaseInsensitive) ? events->saveJson(path, error)
                                                       : events->saveCsv(path, error);
}

void MainWindow::chooseEventLogFile() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export event log"), "lock-events.csv",
        tr("CSV (*.csv);;JSON array of watch --json objects (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportEventLog(path, error))
        QMessageBox::warning(this, tr("Export event log"),
                             tr("Could not write %1: %2").arg(path, error));
}

void MainWindow::selectLockAt(const QModelIndex& proxyIndex) {
    const QModelIndex source = lockProxy_->mapToSource(proxyIndex);
    lockWatch_->selectLock(source.isValid() ? lockWatch_->locks()->lockNameAt(source.row())
                                            : std::string());
}

void MainWindow::showHolder() {
    const QueueModel* queue = lockWatch_->queue();
    if (lockWatch_->selectedLock().empty()) {
        holderCard_->clear(tr("Select a lock to see its holder and queue"));
        return;
    }
    if (queue->rowCount() == 0) {
        holderCard_->clear(tr("Nobody holds %1").arg(lockWatch_->selectedLockText()));
        return;
    }
    const QueueModel::Entry& holder = queue->entryAt(0);
    HolderCard::Holder card{holder.keyText,        holder.leaseHex,
                            holder.createRevision, durationText(queue->ageOf(0)),
                            std::nullopt,          0,
                            holder.value};
    if (holder.ttl) {
        card.ttlRemainingSeconds = holder.ttl->ttl.remainingAt(queue->now());
        card.ttlGrantedSeconds = holder.ttl->ttl.grantedTtlSeconds;
    }
    holderCard_->setHolder(card);
}

void MainWindow::showLiveness(bool live, const QString& why) {
    // The refresh timer runs while a connection is in use: without one nothing reconnects.
    const bool connected = refreshTimer_.isActive();
    liveLabel_->setText(
        live ? QStringLiteral("<span style='color:#2e7d32'>●</span> %1").arg(tr("live"))
        : connected
            ? QStringLiteral("<span style='color:#b07d00'>●</span> %1")
                  .arg(tr("reconnecting: %1").arg(why.toHtmlEscaped()))
            : QStringLiteral("<span style='color:gray'>●</span> %1").arg(why.toHtmlEscaped()));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    saveSettings();
    disconnectSession();
    if (!retiring_.empty()) {
        // Closed for real once etcd has confirmed our keys and leases are gone (or the command
        // timeout passed; see finishRetiring): the window never blocks on the network.
        closeWhenReleased_ = true;
        statusBar()->showMessage(tr("Releasing our locks before closing…"));
        event->ignore();
        return;
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::restoreSettings() {
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    locksSplitter_->restoreState(settings.value("window/locksSplitter").toByteArray());
    detailSplitter_->restoreState(settings.value("window/detailSplitter").toByteArray());
    clusterSplitter_->restoreState(settings.value("window/clusterSplitter").toByteArray());
    prefixBox_->addItems(settings.value("locks/recentPrefixes", QStringList{"/"}).toStringList());
    prefixBox_->setCurrentIndex(0);
}

void MainWindow::saveSettings() const {
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/locksSplitter", locksSplitter_->saveState());
    settings.setValue("window/detailSplitter", detailSplitter_->saveState());
    settings.setValue("window/clusterSplitter", clusterSplitter_->saveState());
}

void MainWindow::connectTo(const etcd::ClientOptions& options, const QString& origin) {
    origin_ = origin;
    QStringList endpoints;
    for (const std::string& endpoint : options.endpoints)
        endpoints << QString::fromStdString(endpoint);
    setPlace(endpoints.join(", "));
    setConnectionState(tr("Connecting…"), "#b07d00");

    session_ = new ClusterSession(options, this);
    connect(session_, &ClusterSession::statusChanged, this, &MainWindow::showSessionStatus);
    connect(session_, &ClusterSession::memberNamesChanged, this,
            [this](const QHash<quint64, QString>& names) { memberNames_ = names; });
    connect(session_, &ClusterSession::latencySampled, latencyPlot_, &LatencyPlot::addPoint);

    lockWatch_->setClient(session_->client());
    std::string unused; // the recent prefixes were all parsed before they were kept
    lockWatch_->setPrefix(
        parseKeyText(prefixBox_->currentText().toStdString(), unused).value_or("/"));
    if (etcd::Client* client = session_->client()) {
        lockActions_ = new LockActions(*client, this);
        connect(lockActions_, &LockActions::acquired, this,
                [this](const QString& name, const QByteArray&, qint64 token) {
                    statusBar()->showMessage(
                        tr("Acquired %1 (fencing token %2)").arg(name).arg(token), 5000);
                    updateLockActions();
                });
        connect(lockActions_, &LockActions::notAcquired, this,
                [this](const QString& name, const QString& reason) {
                    statusBar()->showMessage(tr("Did not acquire %1: %2").arg(name, reason), 8000);
                    updateLockActions();
                });
        connect(
            lockActions_, &LockActions::retrying, this,
            [this](const QString& name, int attempt, double delaySeconds, const QString& reason) {
                statusBar()->showMessage(tr("Waiting for %1: retrying in %2 s (attempt %3): %4")
                                             .arg(name)
                                             .arg(delaySeconds, 0, 'f', 1)
                                             .arg(attempt)
                                             .arg(reason));
            });
        connect(lockActions_, &LockActions::released, this, [this](const QString& name) {
            statusBar()->showMessage(tr("Released %1").arg(name), 5000);
            updateLockActions();
        });
        connect(lockActions_, &LockActions::lost, this,
                [this](const QString& name, const QString& reason) {
                    showProblem(tr("Lost the lock %1: %2").arg(name, reason));
                    updateLockActions();
                });
        connect(lockActions_, &LockActions::forceReleased, this,
                [this](const QByteArray& key, const QString& outcome) {
                    statusBar()->showMessage(
                        tr("Force release of %1: %2")
                            .arg(QString::fromStdString(displayKey(key.toStdString())), outcome),
                        8000);
                });
        labPanel_->setClient(client);
        if (labDemo_) {
            labDemo_ = false;
            setPrefix("/lockscope-lab/");
            labPanel_->start();
        }
    }
    updateLockActions();

    probe_ = new ClusterStatusProbe(options, this);
    connect(probe_, &ClusterStatusProbe::finished, statusModel_, &EndpointStatusModel::setRows);

    refresh();
    refreshTimer_.start();
}

void MainWindow::openConnection(const ConnectionOptions& connection, const QString& origin) {
    pendingOrigin_ = origin;
    if (connection.needsPassword)
        passwords_->find(connection.client);
    else
        replaceConnection(connection.client);
}

void MainWindow::replaceConnection(const etcd::ClientOptions& options) {
    disconnectSession();
    problemBanner_->hide();
    connectTo(options, pendingOrigin_);
}

void MainWindow::startSandbox(const QString& etcdProgram, int members) {
    origin_ = tr("sandbox");
    setPlace(tr("starting…"));
    setConnectionState(tr("Starting sandbox etcd…"), "#b07d00");
    sandbox_ = new Sandbox(etcdProgram, members, this);
    connect(sandbox_, &Sandbox::ready, this, [this](const QStringList& endpoints) {
        etcd::ClientOptions options;
        options.endpoints.clear();
        for (const QString& endpoint : endpoints)
            options.endpoints.push_back(endpoint.toStdString());
        connectTo(options, tr("sandbox"));
        if (sandbox_->members() > 1)
            addSandboxMenu();
    });
    connect(sandbox_, &Sandbox::failed, this, [this](const QString& message) {
        setConnectionState(tr("Sandbox failed"), "#c62828");
        setPlace(tr("not running"));
        showProblem(message);
    });
    sandbox_->start();
}

void MainWindow::disconnectSession() {
    // Monitor, lab and our own locks first, then clients: nothing may outlive the client it
    // works through. Our locks and the lab's sessions are released through the client, whose
    // destruction would cancel those calls: it is retired until etcd has answered them.
    refreshTimer_.stop();
    lockWatch_->setClient(nullptr);
    delete probe_;
    probe_ = nullptr;
    auto latch = CompletionLatch::create();
    labPanel_->detachClient(latch->add());
    if (lockActions_)
        lockActions_->releaseAll(latch->add());
    delete lockActions_;
    lockActions_ = nullptr;
    ClusterSession* session = std::exchange(session_, nullptr);
    if (!session) {
        latch->seal(nullptr);
        return;
    }
    const uint64_t id = ++retired_;
    const auto timeout = session->client() ? session->client()->options().commandTimeout
                                           : std::chrono::milliseconds(0);
    retiring_.push_back({id, session, std::chrono::steady_clock::now() + timeout});
    QTimer::singleShot(timeout, session, [this, id] { finishRetiring(id); });
    latch->seal([guard = QPointer(this), id] {
        postGuarded(guard, [id](MainWindow* self) { self->finishRetiring(id); });
    });
}

void MainWindow::finishRetiring(uint64_t id) {
    const auto found = std::find_if(retiring_.begin(), retiring_.end(),
                                    [id](const Retiring& r) { return r.id == id; });
    if (found == retiring_.end())
        return;
    ClusterSession* session = found->session;
    retiring_.erase(found);
    delete session;
    if (retiring_.empty() && closeWhenReleased_) {
        closeWhenReleased_ = false;
        close();
    }
}

void MainWindow::refresh() {
    session_->refresh();
    probe_->refresh();
}

void MainWindow::showSessionStatus(const EndpointStatus& status) {
    if (status.errorCode == etcd::ErrorCode::AuthFailed) {
        stopOnRefusedPassword(status);
        return;
    }
    if (!status.answered()) {
        // Only an unanswered connection is "unreachable"; other errors (TLS, DNS, credentials)
        // already say what is wrong.
        const bool unreachable = status.errorCode == etcd::ErrorCode::Unavailable;
        setConnectionState(unreachable ? tr("Unreachable") : tr("Not connected"), "#c62828");
        showProblem(unreachable ? tr("Cannot reach the cluster: %1").arg(status.error)
                                : status.error);
        for (QLabel* label : {leaderLabel_, revisionLabel_, termLabel_, roundTripLabel_})
            label->clear();
        return;
    }
    problemBanner_->hide();
    passwords_->accepted(session_->options());
    setConnectionState(tr("Connected"), "#2e7d32");
    const QString using_ = tr("using %1").arg(status.endpoint);
    endpointLabel_->setText(origin_.isEmpty() ? using_ : origin_ + " · " + using_);
    const QString leaderId = EndpointStatus::hexId(status.leaderId);
    const QString leaderName = memberNames_.value(status.leaderId);
    leaderLabel_->setText(
        tr("Leader: %1").arg(leaderName.isEmpty() ? leaderId : leaderName + " (" + leaderId + ")"));
    revisionLabel_->setText(tr("Revision: %1").arg(status.revision));
    termLabel_->setText(tr("Raft term: %1").arg(status.raftTerm));
    roundTripLabel_->setText(tr("Round trip: %1 ms").arg(status.roundTripMs, 0, 'f', 2));
}

// A refused password is refused again on every refresh: the session stops instead, and the
// password is asked again.
void MainWindow::stopOnRefusedPassword(const EndpointStatus& status) {
    const etcd::ClientOptions refused = session_->options();
    const QString message =
        tr("Authentication failed for user %1: etcd refused the user name or password. Enter "
           "the password again, or choose File → Connect… to change the user or the cluster.")
            .arg(QString::fromStdString(refused.username));
    // Queued: this runs inside the session's own signal, and the session is deleted.
    QMetaObject::invokeMethod(
        this,
        [this, failed = QPointer(session_), refused, message, detail = status.error] {
            if (!failed || session_ != failed)
                return;
            disconnectSession();
            setConnectionState(tr("Authentication failed"), "#c62828");
            for (QLabel* label : {leaderLabel_, revisionLabel_, termLabel_, roundTripLabel_})
                label->clear();
            showProblem(message);
            problemBanner_->setToolTip(detail);
            pendingOrigin_ = origin_;
            passwords_->refused(refused, message);
        },
        Qt::QueuedConnection);
}

void MainWindow::showProblem(const QString& message) {
    problemBanner_->setText(message);
    problemBanner_->setToolTip({});
    problemBanner_->show();
}

void MainWindow::setConnectionState(const QString& text, const QString& color) {
    connectionLabel_->setText(
        QStringLiteral("<span style='color:%1'>●</span> %2").arg(color, text));
}

void MainWindow::setPlace(const QString& endpoints) {
    const QString place = origin_.isEmpty() ? endpoints : origin_ + " " + endpoints;
    setWindowTitle(tr("LockScope — %1").arg(place));
    endpointLabel_->setText(place);
}

void MainWindow::startLabDemoWhenConnected() {
    labDemo_ = true;
}

void MainWindow::createLockActions() {
    acquireAction_ = lockActionsBar_->addAction(tr("Acquire…"), this, &MainWindow::acquireLock);
    acquireAction_->setShortcut(QKeySequence("Ctrl+Shift+A"));
    acquireAction_->setToolTip(tr("Take a lock yourself, waiting in the queue or only if free "
                                  "(Ctrl+Shift+A)"));
    releaseAction_ = lockActionsBar_->addAction(tr("Release"), this, &MainWindow::releaseLock);
    releaseAction_->setShortcut(QKeySequence("Ctrl+Shift+R"));
    releaseAction_->setToolTip(tr("Release (or stop waiting for) the selected lock that this "
                                  "window took (Ctrl+Shift+R)"));
    pauseAction_ = lockActionsBar_->addAction(tr("Pause keepalive"));
    pauseAction_->setCheckable(true);
    pauseAction_->setToolTip(tr("Stop renewing the lease of a lock we hold: it expires and the "
                                "next waiter takes over, live"));
    connect(pauseAction_, &QAction::toggled, this, [this](bool paused) {
        const QString name = lockWatch_->selectedLockText();
        if (lockActions_ && lockActions_->busy(name) && lockActions_->paused(name) != paused)
            lockActions_->setPaused(name, paused);
    });
    forceReleaseAction_ =
        lockActionsBar_->addAction(tr("Force release…"), this, &MainWindow::forceReleaseSelected);
    forceReleaseAction_->setShortcut(QKeySequence("Ctrl+Shift+Del"));
    forceReleaseAction_->setToolTip(tr("Take the selected key away from whoever holds it"));
    copyKeyAction_ = lockActionsBar_->addAction(tr("Copy key"), this, &MainWindow::copySelectedKey);
    copyKeyAction_->setShortcut(QKeySequence("Ctrl+Shift+C"));
    for (QAction* a :
         {acquireAction_, releaseAction_, pauseAction_, forceReleaseAction_, copyKeyAction_}) {
        a->setShortcutContext(Qt::WindowShortcut);
        addAction(a);
    }
    acquireAction_->setObjectName("acquireAction");
    releaseAction_->setObjectName("releaseAction");
    pauseAction_->setObjectName("pauseAction");
    forceReleaseAction_->setObjectName("forceReleaseAction");
    copyKeyAction_->setObjectName("copyKeyAction");
}

int MainWindow::selectedQueueRow() const {
    const QModelIndex current = queueTable_->selectionModel()->currentIndex();
    return current.isValid() && current.row() < lockWatch_->queue()->rowCount() ? current.row()
                                                                                : -1;
}

void MainWindow::updateLockActions() {
    const QString name = lockWatch_->selectedLockText();
    const bool connected = lockActions_ != nullptr;
    const bool ours = connected && lockActions_->busy(name);
    acquireAction_->setVisible(!readOnly_);
    releaseAction_->setVisible(!readOnly_);
    pauseAction_->setVisible(!readOnly_);
    forceReleaseAction_->setVisible(!readOnly_);
    acquireAction_->setEnabled(connected);
    releaseAction_->setEnabled(ours);
    pauseAction_->setEnabled(ours);
    {
        const QSignalBlocker quiet(pauseAction_);
        pauseAction_->setChecked(ours && lockActions_->paused(name));
    }
    forceReleaseAction_->setEnabled(connected && selectedQueueRow() >= 0);
    copyKeyAction_->setEnabled(selectedQueueRow() >= 0);
}

void MainWindow::setReadOnly(bool readOnly) {
    readOnly_ = readOnly;
    {
        const QSignalBlocker quiet(readOnlyAction_);
        readOnlyAction_->setChecked(readOnly);
    }
    labPanel_->setEnabled(!readOnly);
    updateLockActions();
}

void MainWindow::acquireLock() {
    if (!lockActions_ || readOnly_)
        return;
    AcquireDialog dialog(lockWatch_->selectedLockText(), this);
    const auto text = [](const std::string& problem) { return QString::fromStdString(problem); };
    dialog.setChecks({[text](const QString& name) {
                          std::string problem;
                          return parseKeyText(name.toStdString(), problem) ? QString()
                                                                           : text(problem);
                      },
                      [text](qint64 ttl) { return text(etcd::leaseTtlProblem(ttl)); },
                      [text](qint64 ttl) { return text(etcd::longLeaseTtlWarning(ttl)); }});
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString name = dialog.lockName();
    const auto startedAt = std::chrono::steady_clock::now();
    // Our own wait goes to the Timeline tab's graph once the lock is ours.
    auto* once = new QObject(this);
    connect(lockActions_, &LockActions::acquired, once,
            [this, once, name, startedAt](const QString& acquired) {
                if (acquired != name)
                    return;
                const double waited = std::chrono::duration<double, std::milli>(
                                          std::chrono::steady_clock::now() - startedAt)
                                          .count();
                charts_->addOwnWait(QDateTime::currentMSecsSinceEpoch() / 1000.0, waited);
                once->deleteLater();
            });
    connect(lockActions_, &LockActions::notAcquired, once, [once, name](const QString& failed) {
        if (failed == name)
            once->deleteLater();
    });
    lockActions_->acquire(name, dialog.ttlSeconds(), dialog.tryOnly());
    statusBar()->showMessage(dialog.tryOnly() ? tr("Trying %1…").arg(name)
                                              : tr("Waiting for %1… (Release cancels)").arg(name));
    updateLockActions();
}

void MainWindow::releaseLock() {
    const QString name = lockWatch_->selectedLockText();
    if (!lockActions_ || !lockActions_->busy(name))
        return;
    lockActions_->cancel(name); // a pending wait ends; a held lock is unaffected by this
    lockActions_->release(name);
}

void MainWindow::forceReleaseSelected() {
    const int row = selectedQueueRow();
    if (!lockActions_ || readOnly_ || row < 0)
        return;
    const QueueModel::Entry& entry = lockWatch_->queue()->entryAt(row);
    const QString next = row + 1 < lockWatch_->queue()->rowCount() && row == 0
                             ? lockWatch_->queue()->entryAt(row + 1).keyText
                             : QString();
    const ForceReleasePlan plan = LockActions::planForceRelease(
        QByteArray::fromStdString(entry.key), entry.lease, entry.createRevision, next);
    QMessageBox confirm(QMessageBox::Warning, tr("Force release"), plan.description,
                        QMessageBox::Cancel, this);
    confirm.addButton(entry.lease ? tr("Revoke lease") : tr("Delete key"),
                      QMessageBox::DestructiveRole);
    confirm.setDefaultButton(QMessageBox::Cancel);
    if (confirm.exec() == QMessageBox::Cancel)
        return;
    lockActions_->forceRelease(plan);
}

void MainWindow::copySelectedKey() {
    const int row = selectedQueueRow();
    if (row >= 0)
        QGuiApplication::clipboard()->setText(lockWatch_->queue()->entryAt(row).keyText);
}

void MainWindow::chooseConnection() {
    QSettings settings;
    ConnectionDialog dialog(
        loadProfiles(settings),
        [](const ConnectionProfile& profile) {
            QString error;
            return toConnectionOptions(profile, error) ? QString() : error;
        },
        this);
    connect(&dialog, &ConnectionDialog::profilesChanged, this,
            [](const QList<ConnectionProfile>& profiles) {
                QSettings store;
                saveProfiles(store, profiles);
            });
    if (dialog.exec() != QDialog::Accepted)
        return;
    QString error;
    const auto options = toConnectionOptions(dialog.profile(), error);
    if (!options)
        return;
    openConnection(*options, dialog.profile().name);
    setReadOnly(dialog.profile().readOnly);
}

void MainWindow::addSandboxMenu() {
    // Stop and restart members of the sandbox cluster to show failover live.
    QMenu* menu = menuBar()->addMenu(tr("&Sandbox"));
    menu->setObjectName("sandboxMenu");
    for (int member = 0; member < sandbox_->members(); ++member) {
        QAction* action = menu->addAction(QString());
        action->setObjectName(QStringLiteral("sandboxMember%1").arg(member));
        auto label = [this, action, member] {
            const bool running = sandbox_->memberRunning(member);
            action->setText(running ? tr("Stop member %1").arg(member)
                                    : tr("Restart member %1").arg(member));
        };
        label();
        connect(sandbox_, &Sandbox::membersChanged, action, label);
        connect(action, &QAction::triggered, this, [this, member] {
            if (sandbox_->memberRunning(member))
                sandbox_->stopMember(member);
            else
                sandbox_->restartMember(member);
        });
    }
}

} // namespace lockscope
