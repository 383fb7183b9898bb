//! Spanish reason texts.

pub(super) const TABLE: &[(&str, &str)] = &[
    (
        "user",
        "Los workers se ejecutan con la cuenta sin privilegios del paquete de la distribución.",
    ),
    (
        "worker_processes",
        "Un worker por vCPU, escrito como número: `auto` cuenta las CPU del host e ignora los límites de CPU del contenedor y la afinidad.",
    ),
    (
        "worker_rlimit_nofile",
        "Archivos abiertos por worker: al menos el doble de worker_connections y suficientes para cada conexión, archivo abierto en caché y socket keepalive hacia el upstream a la vez.",
    ),
    (
        "pid",
        "Donde la unidad de servicio de la distribución espera el archivo pid.",
    ),
    (
        "error_log",
        "Registrar también las advertencias: en este nivel nginx informa de conexiones y límites de archivos agotados.",
    ),
    (
        "include.modules",
        "Cargar los módulos dinámicos que activan los paquetes de la distribución (brotli entre ellos).",
    ),
    (
        "load_module.brotli",
        "Esta disposición no tiene un directorio de módulos que incluir: los módulos brotli se cargan por nombre.",
    ),
    (
        "worker_connections",
        "Ranuras de conexión por worker: los clientes previstos con un 50 % de margen, más una ranura por conexión al upstream y el pool de keepalive. Cada ranura se reserva de antemano (≈0,42 KB), así que no se sobredimensiona.",
    ),
    (
        "omit.use",
        "nginx elige epoll en Linux por sí mismo; indicarlo no cambia nada.",
    ),
    (
        "omit.multi_accept",
        "Desactivado por defecto. Con EPOLLEXCLUSIVE (nginx ≥ {EpollExclusive}) deja que un worker vacíe toda la cola y desequilibra la carga; ningún benchmark muestra una mejora.",
    ),
    (
        "omit.header.referrer",
        "strict-origin-when-cross-origin es lo que los navegadores hacen sin la cabecera (Chrome 85, Firefox 87, Safari 15.2 y posteriores); enviarla añadiría 50 bytes a cada respuesta para nada.",
    ),
    (
        "omit.header.app",
        "La aplicación las fija ella misma (Django, Rails, Spring Security y helmet lo hacen por defecto). nginx añadiría una segunda copia, y con dos valores distintos de X-Frame-Options los navegadores ignoran ambos.",
    ),
    (
        "omit.listen.deferred",
        "TCP_DEFER_ACCEPT oculta una conexión a nginx hasta que llegan sus primeros datos. Medido aquí: con 1000 clientes conectando a la vez, la latencia p99 subió de unos 40 ms a 60-500 ms (docs/benchmarks.md).",
    ),
    (
        "multi_accept",
        "Aceptar todas las conexiones en espera en cada despertar, no solo una. Seguro aquí: el worker vacía solo su propia cola (un único worker, o reuseport), así que ningún worker se lleva la parte de otro.",
    ),
    (
        "pcre_jit",
        "Compilar a código máquina, una vez al arrancar, la expresión regular de la location de recursos estáticos; toda petición que no sea un recurso se compara con ella.",
    ),
    (
        "omit.worker_cpu_affinity",
        "Fijar los workers solo ayuda en hosts dedicados; en VPS compartidos o limitados por cuota puede fijarlos a CPU ocupadas o no disponibles.",
    ),
    (
        "omit.accept_mutex",
        "Desactivado por defecto desde nginx {EpollExclusive}; el kernel reparte las conexiones nuevas.",
    ),
    (
        "include.mime",
        "Los tipos de medio de la distribución, para que los archivos reciban el Content-Type correcto.",
    ),
    (
        "default_type",
        "Los tipos de archivo desconocidos se descargan en lugar de adivinarse.",
    ),
    (
        "types_hash_max_size",
        "Espacio para la lista completa de tipos de medio sin advertencia al arrancar.",
    ),
    (
        "server_tokens",
        "No anunciar la versión de nginx en cabeceras ni páginas de error.",
    ),
    (
        "sendfile",
        "Enviar archivos desde la caché de páginas sin copiarlos a través de nginx.",
    ),
    (
        "tcp_nopush",
        "Con sendfile, enviar las cabeceras y el comienzo del archivo en paquetes completos.",
    ),
    (
        "tcp_nodelay",
        "No retrasar el último paquete pequeño de una respuesta en conexiones keepalive (ya es el valor por defecto).",
    ),
    (
        "aio",
        "Los archivos no caben en la caché de páginas, así que leer del disco bloquearía un worker; un pool de hilos se encarga.",
    ),
    (
        "keepalive_timeout.lb",
        "Más largo que el tiempo de inactividad del balanceador (60 s en los habituales), para que nginx nunca cierre una conexión que el balanceador está a punto de reutilizar.",
    ),
    (
        "keepalive_requests.lb",
        "Pocas conexiones de larga duración desde el balanceador llevan muchas peticiones cada una.",
    ),
    (
        "keepalive_timeout",
        "Lo bastante largo para una página y sus recursos, lo bastante corto para que los navegadores inactivos devuelvan sus ranuras.",
    ),
    (
        "keepalive_requests",
        "Peticiones por conexión de cliente antes de renovarla (el valor por defecto desde nginx {KeepaliveRequests1000}, escrito para versiones anteriores).",
    ),
    (
        "omit.client_body_buffer_size",
        "Un sitio estático casi no recibe cuerpos de petición; las dos páginas por defecto bastan.",
    ),
    (
        "client_body_buffer_size",
        "Los cuerpos de formularios y JSON de hasta 16 KiB se quedan en memoria en lugar de en un archivo temporal.",
    ),
    (
        "large_client_header_buffers",
        "Los clientes de API envían tokens bearer y cookies que superan líneas de cabecera de 8 KiB.",
    ),
    (
        "omit.large_client_header_buffers",
        "Los valores por defecto (1k, que crecen hasta 4 × 8k) bastan para las peticiones de navegadores.",
    ),
    (
        "omit.client_header_buffer_size",
        "El valor por defecto de 1k ya cabe para la mayoría de las cabeceras; las más largas pasan a large_client_header_buffers.",
    ),
    (
        "access_log",
        "Almacenar en búfer las líneas del log: una escritura por cada 64 KiB en lugar de una por petición. En un fallo pueden perderse hasta 5 s de líneas.",
    ),
    (
        "open_file_cache",
        "Mantener abiertos los descriptores de los archivos más pedidos, por worker; las entradas cuentan para worker_rlimit_nofile.",
    ),
    (
        "open_file_cache_valid",
        "Volver a comprobar los archivos en caché una vez por minuto.",
    ),
    (
        "open_file_cache_min_uses",
        "Guardar en caché solo los archivos pedidos dos veces, para que las peticiones aisladas no desplacen a los archivos populares.",
    ),
    (
        "omit.open_file_cache_errors",
        "Guardar en caché «archivo no encontrado» seguiría respondiendo 404 hasta un minuto después de un despliegue que añade el archivo.",
    ),
    ("gzip", "Comprimir las respuestas de texto al vuelo."),
    (
        "gzip_comp_level",
        "El nivel 1 comprime casi tanto como el 5 por una fracción de la CPU; los niveles más altos dejan a un servidor ocupado limitado por CPU. Los archivos estáticos se comprimen de antemano con nivel 9.",
    ),
    (
        "gzip_min_length",
        "Por debajo de unos 256 bytes, la compresión ahorra menos de lo que cuesta.",
    ),
    (
        "gzip_types",
        "Formatos de texto que merece la pena comprimir; text/html siempre se incluye y repetirlo genera una advertencia.",
    ),
    (
        "gzip_proxied",
        "Comprimir también las peticiones que llegan a través de un proxy o CDN (llevan una cabecera Via, que el valor por defecto rechaza).",
    ),
    (
        "gzip_vary",
        "Enviar Vary: Accept-Encoding para que las cachés distingan las copias comprimidas de las normales.",
    ),
    (
        "gzip_static",
        "Servir el archivo .gz precomprimido junto al original cuando exista: sin trabajo de compresión por petición.",
    ),
    (
        "brotli",
        "Comprimir al vuelo con brotli para los clientes que lo aceptan.",
    ),
    (
        "brotli_comp_level",
        "Los niveles hasta 4 cuestan tanta CPU como el nivel más bajo de gzip y comprimen mejor; los archivos estáticos se precomprimen con nivel 11.",
    ),
    ("brotli_types", "Los mismos formatos de texto que gzip."),
    (
        "brotli_static",
        "Servir el archivo .br precomprimido cuando exista.",
    ),
    (
        "set_real_ip_from",
        "Confiar en X-Forwarded-For solo si viene de los balanceadores, para que los logs y los límites vean la dirección real del cliente.",
    ),
    ("real_ip_header", "La cabecera que añade el balanceador."),
    (
        "real_ip_recursive",
        "Saltar todas las direcciones de confianza de la cadena, no solo la última.",
    ),
    (
        "include.sites",
        "El archivo del sitio escrito junto a este (relativo, para que `nginx -t -c` compruebe un árbol generado en su conjunto).",
    ),
    (
        "ssl_protocols",
        "Mozilla intermediate: TLS 1.2 y 1.3. Se escribe explícitamente porque las versiones antiguas de nginx y la configuración de serie de Debian aún activan TLS 1.0 y 1.1.",
    ),
    (
        "ssl_ciphers",
        "Mozilla intermediate (guía 6.0): solo suites AEAD con secreto perfecto hacia adelante; sin DHE, así que sin archivo dhparam.",
    ),
    (
        "ssl_protocols.modern",
        "Mozilla modern: solo TLS 1.3; sus suites de cifrado no necesitan configuración.",
    ),
    (
        "ssl_prefer_server_ciphers",
        "Todas las suites ofrecidas son fuertes, así que los clientes eligen la más rápida para ellos (Mozilla).",
    ),
    (
        "ssl_ecdh_curve",
        "Los grupos de intercambio de claves de Mozilla; el poscuántico X25519MLKEM768 solo con OpenSSL ≥ {PostQuantumKex}, porque las versiones anteriores rechazarían toda la lista.",
    ),
    (
        "ssl_session_cache",
        "Compartida por todos los workers; un MiB guarda unas 4000 sesiones, cuatro por cliente simultáneo previsto.",
    ),
    (
        "ssl_session_timeout",
        "Los visitantes que vuelven reanudan sesiones durante un día (Mozilla) y se ahorran un handshake completo.",
    ),
    (
        "omit.ssl_session_tickets",
        "nginx ≥ {TicketKeyRotation} rota por sí mismo las claves de los tickets cuando hay una caché de sesiones compartida; desactivarlos solo cuesta reanudaciones.",
    ),
    (
        "ssl_session_tickets",
        "Antes de nginx {TicketKeyRotation} las claves de los tickets nunca rotan, lo que anula el secreto hacia adelante (Mozilla).",
    ),
    (
        "ssl_buffer_size",
        "Registros TLS más pequeños entregan antes los primeros bytes de las respuestas dinámicas.",
    ),
    ("upstream.server", "Un servidor de la aplicación."),
    (
        "keepalive",
        "Conexiones inactivas con la aplicación que cada worker mantiene abiertas, para que las peticiones se ahorren el handshake TCP y no agoten los puertos efímeros.",
    ),
    (
        "proxy_pass",
        "Pasar la petición a los servidores de la aplicación del bloque upstream.",
    ),
    (
        "proxy_http_version",
        "El keepalive hacia el upstream necesita HTTP/1.1 antes de nginx {UpstreamKeepaliveByDefault}.",
    ),
    (
        "proxy_set_header.connection",
        "Mantener abierta la conexión con el upstream: antes de nginx {UpstreamKeepaliveByDefault} nginx envía Connection: close.",
    ),
    (
        "proxy_set_header.host",
        "El nombre de host pedido, tal como nginx lo validó ($http_host podría falsificarse).",
    ),
    (
        "proxy_set_header.real_ip",
        "La dirección del cliente para la aplicación.",
    ),
    (
        "proxy_set_header.forwarded_for",
        "La cadena de direcciones del cliente.",
    ),
    (
        "proxy_set_header.forwarded_proto",
        "Si el cliente usó HTTPS, para redirecciones y cookies seguras.",
    ),
    (
        "proxy_buffer_size",
        "Espacio para las cabeceras de respuesta de la aplicación, cookies y tokens incluidos, y para el comienzo del cuerpo: 16k midió un 2 % menos de CPU por página de 32 KiB que 8k (docs/benchmarks.md).",
    ),
    (
        "proxy_buffers",
        "Un cuerpo de respuesta típico cabe en memoria, así la conexión con el upstream se libera enseguida en lugar de esperar a un cliente lento; pocos búferes grandes lo leen en una o dos llamadas en vez de ocho (medido más rápido que 8 4k).",
    ),
    (
        "proxy_busy_buffers_size",
        "Lo que puede estar ocupado enviándose al cliente; nginx exige un valor entre el búfer más grande y todos los búferes menos uno.",
    ),
    (
        "proxy_connect_timeout",
        "Pasar rápido al siguiente servidor de la aplicación cuando uno no acepta conexiones.",
    ),
    (
        "return.catch_all",
        "Cerrar las conexiones para nombres de host que este servidor no atiende, en lugar de mostrar el primer sitio a los escáneres.",
    ),
    (
        "listen.catch_all",
        "Opciones que se aplican a toda la dirección y el puerto, fijadas una vez en el servidor comodín: una cola de escucha (backlog) dimensionada para una avalancha de reconexiones, emparejada con net.core.somaxconn; reuseport, donde se escribe, da a cada worker su propia cola.",
    ),
    (
        "listen.catch_all.fastopen",
        "Opciones que se aplican a toda la dirección y el puerto, fijadas una vez en el servidor comodín: una cola de escucha (backlog) dimensionada para una avalancha de reconexiones, emparejada con net.core.somaxconn; reuseport, donde se escribe, da a cada worker su propia cola.",
    ),
    (
        "listen.quic",
        "HTTP/3 sobre UDP en el mismo puerto; reuseport es necesario para QUIC con varios workers.",
    ),
    (
        "ssl_reject_handshake",
        "Rechazar TLS para nombres de host desconocidos sin presentar el certificado del sitio.",
    ),
    ("listen.site", "El sitio en HTTP sin cifrar."),
    ("server_name", "Los nombres a los que responde este sitio."),
    (
        "acme.root",
        "Dejar pasar los desafíos ACME HTTP-01 por HTTP sin cifrar para que los certificados se renueven.",
    ),
    (
        "return.https",
        "Enviar a HTTPS a los visitantes que llegan por HTTP; 308 conserva el método y el cuerpo.",
    ),
    (
        "ssl_certificate",
        "La cadena de certificados (la ruta de Let's Encrypt si no se indica otra).",
    ),
    (
        "ssl_certificate_key",
        "La clave privada de ese certificado.",
    ),
    (
        "listen.tls",
        "El sitio en HTTPS; antes de nginx {Http2Directive} HTTP/2 se activa aquí.",
    ),
    ("listen.quic.site", "El sitio en HTTP/3."),
    ("http3", "Servir HTTP/3 en el listener QUIC."),
    (
        "http2",
        "HTTP/2 para clientes TLS; desde nginx {Http2Directive} lo activa esta directiva (el parámetro de listen está obsoleto).",
    ),
    (
        "ssl_stapling",
        "Adjuntar la respuesta OCSP de la CA (solicitado; no hace nada con certificados sin URL OCSP, como los de Let's Encrypt desde 2025).",
    ),
    (
        "ssl_stapling_verify",
        "Comprobar la respuesta adjunta antes de enviarla.",
    ),
    (
        "resolver",
        "El stapling busca el respondedor OCSP; este es el stub local de systemd-resolved.",
    ),
    (
        "omit.ssl_stapling",
        "Let's Encrypt dejó OCSP en 2025; hacer stapling de sus certificados solo registra una advertencia. Actívelo con --ocsp-stapling para CA que aún ofrecen OCSP.",
    ),
    (
        "hsts",
        "Los navegadores usan solo HTTPS durante dos años (Mozilla).",
    ),
    (
        "alt_svc",
        "Indicar a los navegadores que HTTP/3 está disponible en este puerto.",
    ),
    (
        "header.nosniff",
        "Los navegadores no deben adivinar los tipos de contenido. Todas las cabeceras se fijan en este único nivel, porque un add_header dentro de un location las descartaría.",
    ),
    (
        "header.frame",
        "Otros sitios no pueden enmarcar estas páginas (clickjacking).",
    ),
    ("root", "Dónde están los archivos del sitio."),
    ("index", "El archivo que se sirve para un directorio."),
    (
        "try_files",
        "Servir el archivo si existe; si no, el índice del directorio; si no, la alternativa.",
    ),
    (
        "expires",
        "Los navegadores guardan hojas de estilo, scripts, imágenes y fuentes durante una semana.",
    ),
    (
        "access_log.assets",
        "Las peticiones de recursos aportan poco al log pero cuestan una escritura cada una.",
    ),
    (
        "net.core.somaxconn",
        "El kernel limita cada cola de escucha a este valor; debe ser al menos el backlog= del listen de nginx y nunca se fija por debajo del valor por defecto del kernel.",
    ),
    (
        "net.ipv4.tcp_max_syn_backlog",
        "Conexiones semiabiertas que el kernel guarda mientras las SYN cookies están desactivadas; elevado al backlog de escucha.",
    ),
    (
        "omit.net.ipv4.tcp_max_syn_backlog",
        "El valor por defecto del kernel para esta cantidad de RAM ya cubre el backlog de escucha.",
    ),
    (
        "net.ipv4.tcp_fastopen",
        "Activar TCP Fast Open también para servidores; emparejado con fastopen= en el socket de escucha. Solo para archivos estáticos, porque los datos de un SYN pueden repetirse.",
    ),
    (
        "omit.net.ipv4.tcp_fastopen",
        "Los datos de Fast Open pueden repetirse, así que solo se usa para archivos estáticos servidos directamente; sin fastopen= en el socket de escucha el sysctl no hace nada.",
    ),
    (
        "net.ipv4.ip_local_port_range",
        "Más puertos efímeros para las conexiones con la aplicación, empezando por encima de los puertos de servicio habituales para que ninguno esté ocupado antes de que su servicio lo abra.",
    ),
    (
        "net.ipv4.ip_local_reserved_ports",
        "Los puertos de servicio dentro del rango ampliado (memcached, RabbitMQ, MongoDB y upstreams locales) quedan libres para sus servicios.",
    ),
    (
        "net.ipv4.tcp_tw_reuse",
        "Reutilizar puertos en TIME-WAIT para nuevas conexiones salientes hacia servidores de aplicación remotos; el valor por defecto (2) solo lo hace en loopback.",
    ),
    (
        "omit.net.ipv4.tcp_tw_reuse.local",
        "El valor por defecto (2) ya reutiliza puertos en TIME-WAIT en loopback, donde están estos upstreams.",
    ),
    (
        "omit.net.ipv4.ip_local_port_range",
        "Solo las conexiones salientes usan puertos efímeros, y un sitio estático no abre ninguna.",
    ),
    (
        "omit.net.ipv4.tcp_tw_reuse",
        "Solo afecta a las conexiones salientes, y un sitio estático no abre ninguna (el valor por defecto es 2, no 0).",
    ),
    (
        "fs.file-max",
        "Entre todos, los workers pueden abrir más archivos de los que permite el valor por defecto del kernel; se eleva, nunca se reduce.",
    ),
    (
        "omit.fs.file-max",
        "El valor por defecto del kernel (RAM en KiB / 10) ya supera lo que pueden abrir todos los workers; un número fijo podría reducirlo.",
    ),
    (
        "udp_buffers",
        "QUIC envía y recibe a través de los búferes de sockets UDP; máximos más grandes evitan pérdidas a tasas altas.",
    ),
    (
        "omit.net.core.netdev_max_backlog",
        "Elévelo solo si crece la segunda columna de /proc/net/softnet_stat (descartes); el valor por defecto sirve para las tasas de red de un VPS.",
    ),
    (
        "LimitNOFILE",
        "El límite de archivos del servicio, al menos worker_rlimit_nofile; nunca por debajo del límite duro por defecto de systemd, que un valor menor reduciría.",
    ),
    (
        "return.misdirected",
        "Un navegador puede reutilizar la conexión HTTP/2 del sitio para otro nombre de host; esas peticiones llegan aquí y reciben 421 Misdirected Request, así el navegador abre una conexión propia.",
    ),
    (
        "omit.try_files",
        "nginx ya sirve el archivo, el índice del directorio o 404; try_files solo añadiría una comprobación de archivo a cada petición (medido: 5–10 % de rendimiento en páginas pequeñas).",
    ),
];
