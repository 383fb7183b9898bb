//! The page's own text in every language of the core ([`Lang`]). Reason texts are not
//! here: the core translates those (`nginx_gen_core::i18n`), so the CLI shares them.

use nginx_gen_core::Lang;

use crate::fields::{Field, Section};

macro_rules! texts {
    ($($key:ident => [$en:literal, $de:literal, $nl:literal, $ru:literal, $es:literal],)*) => {
        /// A piece of UI text.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[allow(missing_docs)]
        pub enum T { $($key),* }

        /// Every text in every language, in the order of [`T`] and of [`Lang::ALL`].
        const TEXTS: &[[&str; 5]] = &[$([$en, $de, $nl, $ru, $es]),*];

        impl T {
            /// Every text, for completeness tests.
            pub const ALL: &'static [Self] = &[$(Self::$key),*];
            /// The text in `lang` (a table lookup: a `match` per text would cost kilobytes
            /// of code in the bundle).
            pub const fn get(self, lang: Lang) -> &'static str {
                TEXTS[self as usize][match lang { Lang::En => 0, Lang::De => 1, Lang::Nl => 2, Lang::Ru => 3, Lang::Es => 4 }]
            }
        }
    };
}

texts! {
    Tagline => ["Describe your machine, copy a tuned nginx configuration: every value computed from your inputs, each with its reason.", "Beschreiben Sie Ihre Maschine und kopieren Sie eine abgestimmte nginx-Konfiguration: jeder Wert aus Ihren Angaben berechnet, jeder mit Begründung.", "Beschrijf je machine en kopieer een afgestemde nginx-configuratie: elke waarde berekend uit je invoer, elk met een reden.", "Опишите машину и скопируйте настроенную конфигурацию nginx: каждое значение рассчитано по вашим данным и объяснено.", "Describa su máquina y copie una configuración de nginx ajustada: cada valor calculado a partir de sus datos, cada uno con su motivo."],
    Skip => ["Skip to the output", "Zur Ausgabe springen", "Naar de uitvoer", "Перейти к результату", "Ir al resultado"],
    Language => ["Language", "Sprache", "Taal", "Язык", "Idioma"],
    Theme => ["Theme", "Design", "Thema", "Тема", "Tema"],
    ThemeAuto => ["Auto", "Automatisch", "Automatisch", "Авто", "Automático"],
    ThemeLight => ["Light", "Hell", "Licht", "Светлая", "Claro"],
    ThemeDark => ["Dark", "Dunkel", "Donker", "Тёмная", "Oscuro"],
    Inputs => ["Your machine", "Ihre Maschine", "Je machine", "Ваша машина", "Su máquina"],
    Machine => ["Machine", "Maschine", "Machine", "Машина", "Máquina"],
    Workload => ["Workload", "Arbeitslast", "Werklast", "Нагрузка", "Carga de trabajo"],
    TlsHttp => ["TLS / HTTP", "TLS / HTTP", "TLS / HTTP", "TLS / HTTP", "TLS / HTTP"],
    Advanced => ["Advanced", "Erweitert", "Geavanceerd", "Дополнительно", "Avanzado"],
    Reset => ["Reset to defaults", "Auf Standardwerte zurücksetzen", "Standaardwaarden herstellen", "Сбросить к значениям по умолчанию", "Restablecer valores por defecto"],
    Output => ["Configuration", "Konfiguration", "Configuratie", "Конфигурация", "Configuración"],
    Files => ["Files", "Dateien", "Bestanden", "Файлы", "Archivos"],
    Copy => ["Copy", "Kopieren", "Kopiëren", "Копировать", "Copiar"],
    Copied => ["Copied to the clipboard.", "In die Zwischenablage kopiert.", "Naar het klembord gekopieerd.", "Скопировано в буфер обмена.", "Copiado al portapapeles."],
    CopyFailed => ["The browser refused the clipboard; select the text and copy it yourself.", "Der Browser verweigert die Zwischenablage; markieren und kopieren Sie den Text selbst.", "De browser weigert het klembord; selecteer de tekst en kopieer hem zelf.", "Браузер запретил доступ к буферу обмена; выделите текст и скопируйте вручную.", "El navegador rechazó el portapapeles; seleccione el texto y cópielo usted."],
    Download => ["Download .tar.gz", ".tar.gz herunterladen", ".tar.gz downloaden", "Скачать .tar.gz", "Descargar .tar.gz"],
    DownloadHint => ["Every file, laid out like /etc: unpack with tar -xzf … -C /", "Alle Dateien wie unter /etc angeordnet: entpacken mit tar -xzf … -C /", "Alle bestanden zoals onder /etc: uitpakken met tar -xzf … -C /", "Все файлы в структуре /etc: распакуйте командой tar -xzf … -C /", "Todos los archivos con la estructura de /etc: descomprima con tar -xzf … -C /"],
    ShareLink => ["Copy share link", "Link zum Teilen kopieren", "Deellink kopiëren", "Скопировать ссылку", "Copiar enlace para compartir"],
    Script => ["install.sh", "install.sh", "install.sh", "install.sh", "install.sh"],
    ScriptHint => ["Paste into a root shell: it writes every file (keeping backups), runs nginx -t, and only then sysctl --system, systemctl daemon-reload and a reload.", "In eine Root-Shell einfügen: schreibt alle Dateien (mit Sicherungen), führt nginx -t aus und erst danach sysctl --system, systemctl daemon-reload und ein Reload.", "Plak in een root-shell: schrijft alle bestanden (met back-ups), draait nginx -t en pas daarna sysctl --system, systemctl daemon-reload en een reload.", "Вставьте в root-оболочку: скрипт запишет все файлы (с резервными копиями), выполнит nginx -t и только затем sysctl --system, systemctl daemon-reload и перезагрузку.", "Péguelo en una shell de root: escribe todos los archivos (con copias de seguridad), ejecuta nginx -t y solo después sysctl --system, systemctl daemon-reload y una recarga."],
    Command => ["The same with the command-line tool:", "Dasselbe mit dem Kommandozeilenwerkzeug:", "Hetzelfde met het opdrachtregelprogramma:", "То же самое в командной строке:", "Lo mismo con la herramienta de línea de órdenes:"],
    Capacity => ["Capacity", "Kapazität", "Capaciteit", "Ёмкость", "Capacidad"],
    CapClients => ["Concurrent clients", "Gleichzeitige Clients", "Gelijktijdige clients", "Одновременных клиентов", "Clientes simultáneos"],
    CapLimitedBy => ["Limited by", "Begrenzt durch", "Begrensd door", "Ограничено", "Limitado por"],
    LimitCpu => ["the vCPUs", "die vCPUs", "de vCPU's", "числом vCPU", "las vCPU"],
    LimitGiven => ["your figure", "Ihre Angabe", "je opgave", "вашим значением", "su cifra"],
    LimitMemory => ["memory", "den Speicher", "het geheugen", "памятью", "la memoria"],
    LimitSlots => ["connection slots", "Verbindungsplätze", "verbindingsplaatsen", "слотами соединений", "las ranuras de conexión"],
    CapWorkers => ["Workers × connections", "Worker × Verbindungen", "Workers × verbindingen", "Воркеры × соединения", "Workers × conexiones"],
    CapPerClient => ["Memory per active client", "Speicher pro aktivem Client", "Geheugen per actieve client", "Память на активного клиента", "Memoria por cliente activo"],
    CapPeak => ["Estimated peak memory", "Geschätzter Spitzenspeicher", "Geschat piekgeheugen", "Оценка пиковой памяти", "Memoria pico estimada"],
    Warnings => ["Warnings", "Warnungen", "Waarschuwingen", "Предупреждения", "Advertencias"],
    NoWarnings => ["No warnings for these inputs.", "Keine Warnungen für diese Angaben.", "Geen waarschuwingen voor deze invoer.", "Для этих данных предупреждений нет.", "Sin advertencias para estos datos."],
    Why => ["Why this value", "Warum dieser Wert", "Waarom deze waarde", "Почему это значение", "Por qué este valor"],
    WhyHint => ["Point at a directive, or move to it with Tab, to see why it has its value.", "Zeigen Sie auf eine Direktive oder springen Sie mit Tab dorthin, um die Begründung zu sehen.", "Wijs een directive aan, of ga er met Tab naartoe, om te zien waarom hij deze waarde heeft.", "Наведите указатель на директиву или перейдите к ней клавишей Tab, чтобы увидеть обоснование.", "Señale una directiva, o vaya a ella con Tab, para ver por qué tiene su valor."],
    Formula => ["Formula", "Formel", "Formule", "Формула", "Fórmula"],
    DependsOn => ["Depends on", "Hängt ab von", "Hangt af van", "Зависит от", "Depende de"],
    StockDefault => ["nginx's default", "Standard von nginx", "Standaard van nginx", "По умолчанию в nginx", "Valor por defecto de nginx"],
    Docs => ["Documentation", "Dokumentation", "Documentatie", "Документация", "Documentación"],
    Omitted => ["Left at the default on purpose", "Bewusst beim Standard belassen", "Bewust op de standaard gelaten", "Намеренно оставлено по умолчанию", "Dejado a propósito en su valor por defecto"],
    InvalidNotice => ["Some inputs are invalid (marked in the form); the output still shows the last valid configuration.", "Einige Angaben sind ungültig (im Formular markiert); die Ausgabe zeigt weiter die letzte gültige Konfiguration.", "Sommige invoer is ongeldig (gemarkeerd in het formulier); de uitvoer toont nog de laatste geldige configuratie.", "Некоторые значения неверны (отмечены в форме); ниже по-прежнему последняя верная конфигурация.", "Algunos datos no son válidos (marcados en el formulario); el resultado sigue mostrando la última configuración válida."],
    Accepted => ["Accepted:", "Zulässig:", "Toegestaan:", "Допустимо:", "Se acepta:"],
    UrlNotice => ["Parts of this link could not be used and were replaced by the defaults:", "Teile dieses Links waren unbrauchbar und wurden durch Standardwerte ersetzt:", "Delen van deze link waren onbruikbaar en zijn vervangen door de standaardwaarden:", "Часть параметров ссылки не удалось использовать; вместо них взяты значения по умолчанию:", "Partes de este enlace no se pudieron usar y se sustituyeron por los valores por defecto:"],
    UnknownParam => ["unknown parameter", "unbekannter Parameter", "onbekende parameter", "неизвестный параметр", "parámetro desconocido"],
    NewerLink => ["the link comes from a newer version of this page", "der Link stammt von einer neueren Version dieser Seite", "de link komt van een nieuwere versie van deze pagina", "ссылка создана более новой версией страницы", "el enlace procede de una versión más reciente de esta página"],
    Dismiss => ["Dismiss", "Schließen", "Sluiten", "Закрыть", "Cerrar"],
    Footer => ["Runs entirely in your browser and keeps working offline; nothing you type leaves this page.", "Läuft vollständig in Ihrem Browser und funktioniert auch offline; nichts, was Sie eingeben, verlässt diese Seite.", "Draait volledig in je browser en werkt ook offline; niets wat je invoert verlaat deze pagina.", "Работает целиком в браузере, в том числе без сети; введённые данные никуда не отправляются.", "Funciona por completo en su navegador, también sin conexión; nada de lo que escriba sale de esta página."],
    Auto => ["auto", "automatisch", "automatisch", "авто", "automático"],
    LabelVcpu => ["vCPUs", "vCPUs", "vCPU's", "vCPU", "vCPU"],
    HintVcpu => ["CPUs nginx may use (container limit, not the host's count).", "CPUs, die nginx nutzen darf (Container-Limit, nicht die Zahl des Hosts).", "CPU's die nginx mag gebruiken (containerlimiet, niet het aantal van de host).", "Процессоры, доступные nginx (лимит контейнера, а не число CPU хоста).", "CPU que nginx puede usar (límite del contenedor, no las del host)."],
    LabelRam => ["Memory", "Arbeitsspeicher", "Geheugen", "Память", "Memoria"],
    HintRam => ["RAM of the machine or container, e.g. 8G, 512M, 1.5G.", "RAM der Maschine oder des Containers, z. B. 8G, 512M, 1.5G.", "RAM van de machine of container, bijv. 8G, 512M, 1.5G.", "ОЗУ машины или контейнера, например 8G, 512M, 1.5G.", "RAM de la máquina o del contenedor, p. ej. 8G, 512M, 1.5G."],
    LabelLayout => ["Distribution", "Distribution", "Distributie", "Дистрибутив", "Distribución"],
    HintLayout => ["Whose nginx package: sets the user, pid file and module paths.", "Wessen nginx-Paket: bestimmt Benutzer, PID-Datei und Modulpfade.", "Wiens nginx-pakket: bepaalt gebruiker, pid-bestand en modulepaden.", "Чей пакет nginx: задаёт пользователя, pid-файл и пути модулей.", "De quién es el paquete de nginx: fija el usuario, el archivo pid y las rutas de módulos."],
    LabelNginxVersion => ["nginx version", "nginx-Version", "nginx-versie", "Версия nginx", "Versión de nginx"],
    HintNginxVersion => ["Selects syntax and features, e.g. 1.22 (Debian 12) or 1.30.", "Bestimmt Syntax und Funktionen, z. B. 1.22 (Debian 12) oder 1.30.", "Bepaalt syntaxis en functies, bijv. 1.22 (Debian 12) of 1.30.", "Определяет синтаксис и возможности, например 1.22 (Debian 12) или 1.30.", "Determina la sintaxis y las funciones, p. ej. 1.22 (Debian 12) o 1.30."],
    LabelOpensslVersion => ["OpenSSL version", "OpenSSL-Version", "OpenSSL-versie", "Версия OpenSSL", "Versión de OpenSSL"],
    HintOpensslVersion => ["The OpenSSL nginx is linked with (nginx -V shows it).", "Das OpenSSL, mit dem nginx gelinkt ist (nginx -V zeigt es).", "De OpenSSL waarmee nginx is gelinkt (nginx -V toont het).", "OpenSSL, с которым собран nginx (видно в nginx -V).", "El OpenSSL con el que está enlazado nginx (lo muestra nginx -V)."],
    LabelWorkload => ["Workload", "Arbeitslast", "Werklast", "Тип нагрузки", "Carga de trabajo"],
    HintWorkload => ["Static files, a reverse proxy, a JSON API, or files plus an application.", "Statische Dateien, ein Reverse Proxy, eine JSON-API oder Dateien plus Anwendung.", "Statische bestanden, een reverse proxy, een JSON-API of bestanden plus een applicatie.", "Статические файлы, обратный прокси, JSON API или файлы плюс приложение.", "Archivos estáticos, un proxy inverso, una API JSON o archivos más una aplicación."],
    LabelServerNames => ["Server names", "Servernamen", "Servernamen", "Имена сервера", "Nombres del servidor"],
    HintServerNames => ["Host names the site answers to, separated by commas; the first names the files.", "Hostnamen der Site, durch Kommas getrennt; der erste benennt die Dateien.", "Hostnamen van de site, gescheiden door komma's; de eerste geeft de bestanden hun naam.", "Имена хостов сайта через запятую; первое даёт имя файлам.", "Nombres de host del sitio, separados por comas; el primero da nombre a los archivos."],
    LabelUpstreams => ["Application servers", "Anwendungsserver", "Applicatieservers", "Серверы приложения", "Servidores de la aplicación"],
    HintUpstreams => ["host:port or unix:/path, separated by commas (proxy, api, mixed).", "host:port oder unix:/pfad, durch Kommas getrennt (proxy, api, mixed).", "host:poort of unix:/pad, gescheiden door komma's (proxy, api, mixed).", "host:port или unix:/путь через запятую (proxy, api, mixed).", "host:puerto o unix:/ruta, separados por comas (proxy, api, mixed)."],
    LabelClients => ["Peak concurrent clients", "Gleichzeitige Clients (Spitze)", "Gelijktijdige clients (piek)", "Пик одновременных клиентов", "Clientes simultáneos (pico)"],
    HintClients => ["Leave empty to derive it from the machine.", "Leer lassen, um ihn aus der Maschine abzuleiten.", "Leeg laten om het af te leiden uit de machine.", "Оставьте пустым, чтобы вычислить по машине.", "Déjelo vacío para deducirlo de la máquina."],
    LabelStaticFiles => ["Static files", "Statische Dateien", "Statische bestanden", "Статических файлов", "Archivos estáticos"],
    HintStaticFiles => ["How many files the site serves; sizes the open-file cache.", "Wie viele Dateien die Site ausliefert; bemisst den Open-File-Cache.", "Hoeveel bestanden de site serveert; bepaalt de open-file-cache.", "Сколько файлов отдаёт сайт; определяет кэш открытых файлов.", "Cuántos archivos sirve el sitio; dimensiona la caché de archivos abiertos."],
    LabelResponseSize => ["Typical response", "Typische Antwort", "Typisch antwoord", "Типичный ответ", "Respuesta típica"],
    HintResponseSize => ["Usual body size of a response, e.g. 32K; sizes the proxy buffers.", "Übliche Body-Größe einer Antwort, z. B. 32K; bemisst die Proxy-Puffer.", "Gebruikelijke grootte van een antwoord, bijv. 32K; bepaalt de proxybuffers.", "Обычный размер тела ответа, например 32K; определяет буферы прокси.", "Tamaño habitual del cuerpo de una respuesta, p. ej. 32K; dimensiona los búferes del proxy."],
    LabelTls => ["HTTPS", "HTTPS", "HTTPS", "HTTPS", "HTTPS"],
    HintTls => ["Serve HTTPS and redirect plain HTTP to it.", "HTTPS ausliefern und einfaches HTTP dorthin umleiten.", "HTTPS serveren en gewone HTTP ernaar doorsturen.", "Обслуживать HTTPS и перенаправлять на него HTTP.", "Servir HTTPS y redirigir a él el HTTP sin cifrar."],
    LabelTlsProfile => ["TLS profile", "TLS-Profil", "TLS-profiel", "Профиль TLS", "Perfil TLS"],
    HintTlsProfile => ["Mozilla intermediate (TLS 1.2 + 1.3) or modern (TLS 1.3 only).", "Mozilla intermediate (TLS 1.2 + 1.3) oder modern (nur TLS 1.3).", "Mozilla intermediate (TLS 1.2 + 1.3) of modern (alleen TLS 1.3).", "Mozilla intermediate (TLS 1.2 + 1.3) или modern (только TLS 1.3).", "Mozilla intermediate (TLS 1.2 + 1.3) o modern (solo TLS 1.3)."],
    LabelTlsPort => ["HTTPS port", "HTTPS-Port", "HTTPS-poort", "Порт HTTPS", "Puerto HTTPS"],
    HintTlsPort => ["Usually 443.", "Meist 443.", "Meestal 443.", "Обычно 443.", "Normalmente 443."],
    LabelTlsCert => ["Certificate", "Zertifikat", "Certificaat", "Сертификат", "Certificado"],
    HintTlsCert => ["Path of the chain; empty means Let's Encrypt's path.", "Pfad der Kette; leer bedeutet den Pfad von Let's Encrypt.", "Pad van de keten; leeg betekent het pad van Let's Encrypt.", "Путь к цепочке; пусто — путь Let's Encrypt.", "Ruta de la cadena; vacío significa la ruta de Let's Encrypt."],
    LabelTlsKey => ["Private key", "Privater Schlüssel", "Privésleutel", "Закрытый ключ", "Clave privada"],
    HintTlsKey => ["Give it together with the certificate.", "Zusammen mit dem Zertifikat angeben.", "Samen met het certificaat opgeven.", "Указывается вместе с сертификатом.", "Indíquela junto con el certificado."],
    LabelOcspStapling => ["OCSP stapling", "OCSP-Stapling", "OCSP-stapling", "OCSP stapling", "OCSP stapling"],
    HintOcspStapling => ["Only for CAs that still run OCSP (Let's Encrypt does not).", "Nur für CAs, die noch OCSP betreiben (Let's Encrypt nicht).", "Alleen voor CA's die nog OCSP draaien (Let's Encrypt niet).", "Только для УЦ, которые ещё поддерживают OCSP (Let's Encrypt — нет).", "Solo para CA que aún ofrecen OCSP (Let's Encrypt no)."],
    LabelHttp3 => ["HTTP/3", "HTTP/3", "HTTP/3", "HTTP/3", "HTTP/3"],
    HintHttp3 => ["QUIC over UDP; needs HTTPS and nginx 1.25 or later.", "QUIC über UDP; braucht HTTPS und nginx 1.25 oder neuer.", "QUIC over UDP; vereist HTTPS en nginx 1.25 of nieuwer.", "QUIC поверх UDP; нужны HTTPS и nginx 1.25 или новее.", "QUIC sobre UDP; necesita HTTPS y nginx 1.25 o posterior."],
    LabelBrotli => ["Brotli", "Brotli", "Brotli", "Brotli", "Brotli"],
    HintBrotli => ["The brotli modules are installed (Debian: libnginx-mod-http-brotli-*).", "Die brotli-Module sind installiert (Debian: libnginx-mod-http-brotli-*).", "De brotli-modules zijn geïnstalleerd (Debian: libnginx-mod-http-brotli-*).", "Модули brotli установлены (Debian: libnginx-mod-http-brotli-*).", "Los módulos brotli están instalados (Debian: libnginx-mod-http-brotli-*)."],
    LabelListen => ["HTTP listen", "HTTP-Listen", "HTTP-listen", "Адрес HTTP", "Escucha HTTP"],
    HintListen => ["Port, or address:port such as 127.0.0.1:8080 or [::]:80.", "Port oder Adresse:Port wie 127.0.0.1:8080 oder [::]:80.", "Poort, of adres:poort zoals 127.0.0.1:8080 of [::]:80.", "Порт или адрес:порт, например 127.0.0.1:8080 или [::]:80.", "Puerto, o dirección:puerto como 127.0.0.1:8080 o [::]:80."],
    LabelRoot => ["Document root", "Dokumentwurzel", "Documentroot", "Корень документов", "Raíz de documentos"],
    HintRoot => ["Where the site's files are; empty means the distribution's usual one.", "Wo die Dateien der Site liegen; leer bedeutet den üblichen Ort der Distribution.", "Waar de bestanden van de site staan; leeg betekent de gebruikelijke plek van de distributie.", "Где лежат файлы сайта; пусто — обычный путь дистрибутива.", "Dónde están los archivos del sitio; vacío significa la ruta habitual de la distribución."],
    LabelBehindLb => ["Behind a load balancer", "Hinter einem Load Balancer", "Achter een load balancer", "За балансировщиком", "Detrás de un balanceador"],
    HintBehindLb => ["Clients arrive through a load balancer or CDN.", "Clients kommen über einen Load Balancer oder ein CDN.", "Clients komen via een load balancer of CDN.", "Клиенты приходят через балансировщик или CDN.", "Los clientes llegan a través de un balanceador o una CDN."],
    LabelTrustedProxies => ["Trusted proxies", "Vertrauenswürdige Proxys", "Vertrouwde proxy's", "Доверенные прокси", "Proxies de confianza"],
    HintTrustedProxies => ["Addresses of the load balancers, e.g. 10.0.0.0/8, separated by commas.", "Adressen der Load Balancer, z. B. 10.0.0.0/8, durch Kommas getrennt.", "Adressen van de load balancers, bijv. 10.0.0.0/8, gescheiden door komma's.", "Адреса балансировщиков через запятую, например 10.0.0.0/8.", "Direcciones de los balanceadores, p. ej. 10.0.0.0/8, separadas por comas."],
}

/// The heading of a fieldset of the form.
pub const fn section_title(section: Section) -> T {
    match section {
        Section::Machine => T::Machine,
        Section::Workload => T::Workload,
        Section::Tls => T::TlsHttp,
        Section::Advanced => T::Advanced,
    }
}

impl Field {
    /// The field's label and hint, by the input's JSON name; `None` for an input whose
    /// texts are not in the table yet (the form then shows the registry's English help).
    pub fn texts(self) -> Option<(T, T)> {
        Some(match self.key() {
            "vcpu" => (T::LabelVcpu, T::HintVcpu),
            "ram" => (T::LabelRam, T::HintRam),
            "layout" => (T::LabelLayout, T::HintLayout),
            "nginx_version" => (T::LabelNginxVersion, T::HintNginxVersion),
            "openssl_version" => (T::LabelOpensslVersion, T::HintOpensslVersion),
            "workload" => (T::LabelWorkload, T::HintWorkload),
            "server_names" => (T::LabelServerNames, T::HintServerNames),
            "upstreams" => (T::LabelUpstreams, T::HintUpstreams),
            "clients" => (T::LabelClients, T::HintClients),
            "static_files" => (T::LabelStaticFiles, T::HintStaticFiles),
            "response_size" => (T::LabelResponseSize, T::HintResponseSize),
            "tls" => (T::LabelTls, T::HintTls),
            "tls_profile" => (T::LabelTlsProfile, T::HintTlsProfile),
            "tls_port" => (T::LabelTlsPort, T::HintTlsPort),
            "tls_cert" => (T::LabelTlsCert, T::HintTlsCert),
            "tls_key" => (T::LabelTlsKey, T::HintTlsKey),
            "ocsp_stapling" => (T::LabelOcspStapling, T::HintOcspStapling),
            "http3" => (T::LabelHttp3, T::HintHttp3),
            "brotli" => (T::LabelBrotli, T::HintBrotli),
            "listen" => (T::LabelListen, T::HintListen),
            "root" => (T::LabelRoot, T::HintRoot),
            "behind_lb" => (T::LabelBehindLb, T::HintBehindLb),
            "trusted_proxies" => (T::LabelTrustedProxies, T::HintTrustedProxies),
            _ => return None,
        })
    }
}

/// The language's own name, for the switcher.
pub const fn native_name(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "English",
        Lang::De => "Deutsch",
        Lang::Nl => "Nederlands",
        Lang::Ru => "Русский",
        Lang::Es => "Español",
    }
}

/// The best language for a browser's preference list (`navigator.languages`).
pub fn detect<'a>(preferred: impl IntoIterator<Item = &'a str>) -> Lang {
    preferred
        .into_iter()
        .find_map(|tag| {
            tag.split(['-', '_'])
                .next()
                .and_then(|p| p.to_ascii_lowercase().parse().ok())
        })
        .unwrap_or(Lang::En)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_exists_in_every_language() {
        for &t in T::ALL {
            for &lang in Lang::ALL {
                assert!(!t.get(lang).trim().is_empty(), "{t:?} {lang}");
            }
        }
    }

    #[test]
    fn every_form_field_has_a_label_and_a_hint() {
        for &field in Field::all() {
            assert!(field.texts().is_some(), "add the texts of {}", field.key());
        }
    }

    #[test]
    fn browser_language_is_detected() {
        assert_eq!(detect(["fr-FR", "de-AT", "en"]), Lang::De);
        assert_eq!(detect(["pt-BR"]), Lang::En);
        assert_eq!(detect(["NL"]), Lang::Nl);
    }
}
